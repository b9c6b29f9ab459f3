package dev.mcpx.client.oauth;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
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
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.oauth2.server.authorization.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientCredentialsAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.web.SecurityFilterChain;

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

	static final String SCOPE = "mcp:tools";

	private final ConfigurableApplicationContext context;

	private final Counters counters;

	private AuthorizationServerApp(ConfigurableApplicationContext context) {
		this.context = context;
		this.counters = context.getBean(Counters.class);
	}

	static AuthorizationServerApp start(Duration tokenLifetime) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Config.class).properties(Map.of(
				"server.port", "0", "server.address", "127.0.0.1", "spring.main.banner-mode", "off",
				"spring.security.oauth2.authorizationserver.client.mcpx.registration.client-id", CLIENT_ID,
				"spring.security.oauth2.authorizationserver.client.mcpx.registration.client-secret",
				"{noop}" + CLIENT_SECRET,
				"spring.security.oauth2.authorizationserver.client.mcpx.registration.client-authentication-methods",
				"client_secret_basic",
				"spring.security.oauth2.authorizationserver.client.mcpx.registration.authorization-grant-types",
				"client_credentials", "spring.security.oauth2.authorizationserver.client.mcpx.registration.scopes",
				SCOPE, "spring.security.oauth2.authorizationserver.client.mcpx.token.access-token-time-to-live",
				tokenLifetime.toMillis() + "ms"))
			// the module's test application.properties turns Spring Security off for the others
			.run("--spring.autoconfigure.exclude=");
		return new AuthorizationServerApp(context);
	}

	int port() {
		return ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	String mcpUrl() {
		return "http://127.0.0.1:" + port() + "/mcp";
	}

	String issuer() {
		return "http://127.0.0.1:" + port();
	}

	Counters counters() {
		return this.counters;
	}

	@Override
	public void close() {
		this.context.close();
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
	static class Config {

		@Bean
		Counters counters() {
			return new Counters();
		}

		@Bean
		@Order(1)
		SecurityFilterChain authorizationServerChain(HttpSecurity http) throws Exception {
			OAuth2AuthorizationServerConfigurer authorizationServer = new OAuth2AuthorizationServerConfigurer();
			http.securityMatcher(authorizationServer.getEndpointsMatcher())
				.with(authorizationServer, Customizer.withDefaults())
				.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.csrf((csrf) -> csrf.ignoringRequestMatchers(authorizationServer.getEndpointsMatcher()));
			return http.build();
		}

		@Bean
		@Order(2)
		SecurityFilterChain resourceServerChain(HttpSecurity http, WebServerApplicationContext server)
				throws Exception {
			http.authorizeHttpRequests((requests) -> requests.requestMatchers("/mcp")
				.hasAuthority("SCOPE_" + SCOPE)
				.anyRequest()
				.permitAll())
				.oauth2ResourceServer((resourceServer) -> resourceServer.jwt(Customizer.withDefaults())
					.protectedResourceMetadata((metadata) -> metadata.protectedResourceMetadataCustomizer(
							(builder) -> builder.resource(base(server) + "/mcp")
								.authorizationServers((servers) -> {
									servers.clear();
									servers.add(base(server));
								})
								.scopes((scopes) -> {
									scopes.clear();
									scopes.add(SCOPE);
								}))))
				.csrf((csrf) -> csrf.disable())
				.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
			return http.build();
		}

		private static String base(WebServerApplicationContext server) {
			return "http://127.0.0.1:" + server.getWebServer().getPort();
		}

		/** Tokens expire when they say (no skew), and only for the resource they were issued for. */
		@Bean
		JwtDecoder jwtDecoder(JWKSource<SecurityContext> jwkSource, WebServerApplicationContext server) {
			NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(jwkSource).build();
			decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(new JwtTimestampValidator(Duration.ZERO),
					(jwt) -> (jwt.getAudience() != null && jwt.getAudience().contains(base(server) + "/mcp"))
							? OAuth2TokenValidatorResult.success()
							: OAuth2TokenValidatorResult
								.failure(new OAuth2Error("invalid_token", "not issued for this resource", null))));
			return decoder;
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
