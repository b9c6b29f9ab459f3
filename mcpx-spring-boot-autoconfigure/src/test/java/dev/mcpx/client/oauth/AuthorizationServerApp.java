package dev.mcpx.client.oauth;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JsonSchema;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientCredentialsAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

import dev.mcpx.testsupport.SpringAuthorizationServer;

/**
 * A real authorization server and a protected MCP server in one Spring Boot application on
 * 127.0.0.1 and a free port: Spring Authorization Server issues client credentials tokens
 * (JWT, short-lived, audience = the RFC 8707 {@code resource} the client named); Spring
 * Security's resource server guards {@code /mcp}, with no clock skew so tokens really expire,
 * publishes its protected resource metadata (RFC 9728) and names it in its 401s; behind it,
 * the official MCP Java SDK server with one tool, {@code echo}.
 * <p>
 * It counts what a test must know: token requests at the token endpoint, 401s at the MCP
 * endpoint, the distinct tokens the MCP endpoint accepted, and executions of the tool.
 */
final class AuthorizationServerApp implements AutoCloseable {

	static final String CLIENT_ID = "mcpx-client";

	static final String CLIENT_SECRET = "s3cret-for-the-test-only";

	static final String SCOPE = SpringAuthorizationServer.SCOPE;

	private final SpringAuthorizationServer server;

	private final Counters counters;

	private AuthorizationServerApp(SpringAuthorizationServer server) {
		this.server = server;
		this.counters = server.bean(Counters.class);
	}

	static AuthorizationServerApp start(Duration tokenLifetime) {
		Map<String, Object> properties = new HashMap<>();
		SpringAuthorizationServer.client(properties, "mcpx", CLIENT_ID, CLIENT_SECRET, "client_credentials",
				tokenLifetime);
		return new AuthorizationServerApp(SpringAuthorizationServer.start(Config.class, properties));
	}

	int port() {
		return this.server.port();
	}

	String mcpUrl() {
		return this.server.mcpUrl();
	}

	String issuer() {
		return this.server.issuer();
	}

	Counters counters() {
		return this.counters;
	}

	@Override
	public void close() {
		this.server.close();
	}

	/** What the servers saw. */
	static final class Counters {

		final AtomicInteger tokenRequests = new AtomicInteger();

		final AtomicInteger unauthorized = new AtomicInteger();

		final AtomicInteger executions = new AtomicInteger();

		final Set<String> acceptedTokens = ConcurrentHashMap.newKeySet();

		final Set<String> audiences = ConcurrentHashMap.newKeySet();

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(SpringAuthorizationServer.Security.class)
	static class Config {

		@Bean
		Counters counters() {
			return new Counters();
		}

		/** RFC 8707: the token's audience is the resource the client asked for. */
		@Bean
		OAuth2TokenCustomizer<JwtEncodingContext> audienceFromResource(Counters counters) {
			return (context) -> {
				if (context.getAuthorizationGrant() instanceof OAuth2ClientCredentialsAuthenticationToken grant) {
					Object resource = grant.getAdditionalParameters().get("resource");
					if (resource != null) {
						counters.audiences.add(resource.toString());
						context.getClaims().audience(List.of(resource.toString()));
					}
				}
			};
		}

		@Bean
		FilterRegistrationBean<Filter> tokenRequestCounter(Counters counters) {
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(
					(Filter) (request, response, chain) -> {
						HttpServletRequest http = (HttpServletRequest) request;
						if (http.getMethod().equals("POST") && http.getRequestURI().equals("/oauth2/token")) {
							counters.tokenRequests.incrementAndGet();
						}
						chain.doFilter(request, response);
						if (http.getRequestURI().equals("/mcp")
								&& ((HttpServletResponse) response).getStatus() == 401) {
							counters.unauthorized.incrementAndGet();
						}
					});
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

		/** After Spring Security: records the id of each token the MCP endpoint accepted. */
		@Bean
		FilterRegistrationBean<Filter> acceptedTokenRecorder(Counters counters) {
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(new Filter() {
				@Override
				public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
						throws IOException, ServletException {
					Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
					if (authentication instanceof JwtAuthenticationToken jwt) {
						counters.acceptedTokens.add(jwt.getToken().getId());
					}
					chain.doFilter(request, response);
				}
			});
			registration.addUrlPatterns("/mcp");
			registration.setOrder(Ordered.LOWEST_PRECEDENCE);
			return registration;
		}

		@Bean
		HttpServletStreamableServerTransportProvider mcpTransport() {
			return HttpServletStreamableServerTransportProvider.builder()
				.mcpEndpoint("/mcp")
				.sessionSweepInterval(null)
				.build();
		}

		@Bean(destroyMethod = "close")
		McpSyncServer mcpServer(HttpServletStreamableServerTransportProvider transport, Counters counters) {
			Tool echo = Tool.builder()
				.name("echo")
				.description("echoes its text")
				.inputSchema(new JsonSchema("object", Map.of("text", Map.of("type", "string")), List.of("text"), null,
						null, null))
				.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
				.build();
			return McpServer.sync(transport)
				.serverInfo("protected-java-sdk-server", "1.0")
				.capabilities(ServerCapabilities.builder().tools(true).build())
				.tools(SyncToolSpecification.builder().tool(echo).callHandler((exchange, request) -> {
					counters.executions.incrementAndGet();
					return CallToolResult.builder()
						.addTextContent(String.valueOf(request.arguments().get("text")))
						.isError(false)
						.build();
				}).build())
				.build();
		}

		@Bean
		ServletRegistrationBean<HttpServletStreamableServerTransportProvider> mcpServlet(
				HttpServletStreamableServerTransportProvider transport) {
			ServletRegistrationBean<HttpServletStreamableServerTransportProvider> registration = new ServletRegistrationBean<>(
					transport, "/mcp");
			registration.setAsyncSupported(true);
			registration.setLoadOnStartup(1);
			return registration;
		}

	}

}
