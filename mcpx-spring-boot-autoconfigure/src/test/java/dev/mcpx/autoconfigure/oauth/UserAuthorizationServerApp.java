package dev.mcpx.autoconfigure.oauth;

import java.security.Principal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.modelcontextprotocol.common.McpTransportContext;
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
import org.jspecify.annotations.Nullable;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2ClientCredentialsAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenExchangeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.RestClient;

import dev.mcpx.testsupport.SpringAuthorizationServer;

/**
 * A real authorization server and an MCP server that sees who calls it, in one Spring Boot
 * application on 127.0.0.1 and a free port. Spring Authorization Server issues each user
 * (a client of its own here: {@code alice}, {@code bob}, {@code carol}) a token whose subject
 * is that user, and lets the application's client ({@code mcpx-app}) exchange such a token
 * (RFC 8693) for a short-lived one whose audience is the MCP server (RFC 8707
 * {@code resource}). Spring Security's resource server guards {@code /mcp} and accepts only
 * that audience; behind it, the official MCP Java SDK server's tool {@code whoami} answers
 * with the subject of the token that carried the call.
 * <p>
 * It counts what a test must know: per subject, the calls the MCP server ran, the sessions
 * they ran in, and the token exchanges; per session, every subject seen in it.
 */
final class UserAuthorizationServerApp implements AutoCloseable {

	static final String CLIENT_ID = "mcpx-app";

	static final String CLIENT_SECRET = "app-s3cret-for-the-test-only";

	static final String SCOPE = SpringAuthorizationServer.SCOPE;

	static final List<String> USERS = List.of("alice", "bob", "carol");

	/** Which era's MCP server runs at {@code /mcp}: {@code legacy} or {@code modern}. */
	private static final String ERA = "test.mcp.era";

	private final SpringAuthorizationServer server;

	private final Counters counters;

	private UserAuthorizationServerApp(SpringAuthorizationServer server) {
		this.server = server;
		this.counters = server.bean(Counters.class);
	}

	/**
	 * Starts the servers.
	 * @param exchangedTokenLifetime the lifetime of tokens the application obtains by exchange
	 * @return the running servers
	 */
	static UserAuthorizationServerApp start(Duration exchangedTokenLifetime) {
		return start(exchangedTokenLifetime, "legacy");
	}

	/**
	 * Starts the servers with a modern-era (2026-07-28) MCP server at {@code /mcp} in place of
	 * the Java SDK's legacy one ({@link ModernWhoamiServer}).
	 * @param exchangedTokenLifetime the lifetime of tokens the application obtains by exchange
	 * @return the running servers
	 */
	static UserAuthorizationServerApp startModern(Duration exchangedTokenLifetime) {
		return start(exchangedTokenLifetime, "modern");
	}

	private static UserAuthorizationServerApp start(Duration exchangedTokenLifetime, String era) {
		// a listen stream still open must not hold the shutdown for its grace period
		Map<String, Object> properties = new HashMap<>(Map.of("server.shutdown", "immediate", ERA, era));
		SpringAuthorizationServer.client(properties, "app", CLIENT_ID, CLIENT_SECRET,
				"client_credentials,urn:ietf:params:oauth:grant-type:token-exchange", exchangedTokenLifetime);
		for (String user : USERS) {
			SpringAuthorizationServer.client(properties, user, user, user + "-secret", "client_credentials",
					Duration.ofMinutes(10));
		}
		return new UserAuthorizationServerApp(SpringAuthorizationServer.start(Config.class, properties));
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

	/**
	 * A user signs in: their own access token, as the application's resource server would
	 * hold it after accepting it ({@code JwtAuthenticationToken}, its JWT checked against the
	 * authorization server's keys).
	 * @param user one of {@link #USERS}
	 * @return the user's authentication
	 */
	JwtAuthenticationToken signIn(String user) {
		Jwt jwt = NimbusJwtDecoder.withJwkSetUri(issuer() + "/oauth2/jwks").build().decode(tokenOf(user, null));
		return authenticated(jwt);
	}

	/**
	 * Runs the call on this thread as the user signed in ({@link #signIn}), and signs out after.
	 * @param user the user's authentication
	 * @param call the call
	 * @param <T> what it returns
	 * @return what the call returned
	 * @throws Exception what the call threw
	 */
	static <T> T as(Authentication user, java.util.concurrent.Callable<T> call) throws Exception {
		SecurityContextHolder.getContext().setAuthentication(user);
		try {
			return call.call();
		}
		finally {
			SecurityContextHolder.clearContext();
		}
	}

	/**
	 * A token whose subject is the user, for the resource named (RFC 8707), as the user's
	 * authorized client would hold it after authorizing once in the browser.
	 * @param user one of {@link #USERS}
	 * @param resource the resource, or {@code null} for the user's own token
	 * @return the token
	 */
	String tokenOf(String user, @Nullable String resource) {
		MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
		form.add("grant_type", "client_credentials");
		form.add("scope", SCOPE);
		if (resource != null) {
			form.add("resource", resource);
		}
		Map<?, ?> response = RestClient.create()
			.post()
			.uri(issuer() + "/oauth2/token")
			.headers((headers) -> headers.setBasicAuth(user, user + "-secret"))
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.body(form)
			.retrieve()
			.body(Map.class);
		return String.valueOf(response.get("access_token"));
	}

	/**
	 * A user's authentication as Spring Security's resource server makes it from their token.
	 * @param jwt the user's token
	 * @return the authenticated user
	 */
	static JwtAuthenticationToken authenticated(Jwt jwt) {
		return new JwtAuthenticationToken(jwt, List.of(new SimpleGrantedAuthority("SCOPE_" + SCOPE)));
	}

	/**
	 * The user revokes their grant: their access token is no longer valid, and no longer
	 * exchanged (RFC 7009).
	 * @param user the user
	 * @param token the user's access token
	 */
	void revoke(String user, String token) {
		MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
		form.add("token", token);
		RestClient.create()
			.post()
			.uri(issuer() + "/oauth2/revoke")
			.headers((headers) -> headers.setBasicAuth(user, user + "-secret"))
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.body(form)
			.retrieve()
			.toBodilessEntity();
	}

	@Override
	public void close() {
		this.server.close();
	}

	/** What the servers saw. */
	static final class Counters {

		/** Per subject: the tool calls the MCP server ran for it. */
		final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();

		/** Per subject: the sessions its calls ran in. */
		final Map<String, Set<String>> sessions = new ConcurrentHashMap<>();

		/** Per session: every subject whose token carried a call in it. */
		final Map<String, Set<String>> subjectsOfSession = new ConcurrentHashMap<>();

		/** Per subject: the token exchanges the authorization server granted for it. */
		final Map<String, AtomicInteger> exchanges = new ConcurrentHashMap<>();

		/** Sessions ended by the client with DELETE. */
		final AtomicInteger deletes = new AtomicInteger();

		/** The RFC 8707 resources token exchanges named. */
		final Set<String> resources = ConcurrentHashMap.newKeySet();

		/** Per subject: the distinct tokens the MCP endpoint accepted for it. */
		final Map<String, Set<String>> acceptedTokens = new ConcurrentHashMap<>();

		/** The modern server's requests, by {@code "<method> <subject>"}. */
		final ConcurrentHashMap<String, AtomicInteger> requests = new ConcurrentHashMap<>();

		int requests(String method, String subject) {
			return ModernWhoamiServer.count(this.requests, method, subject);
		}

		int executions(String subject) {
			AtomicInteger count = this.executions.get(subject);
			return (count != null) ? count.get() : 0;
		}

		int exchanges(String subject) {
			AtomicInteger count = this.exchanges.get(subject);
			return (count != null) ? count.get() : 0;
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(SpringAuthorizationServer.Security.class)
	static class Config {

		@Bean
		Counters counters() {
			return new Counters();
		}

		/**
		 * Keeps every authorization in memory, with the principal a token exchange takes
		 * as its subject: a user's token here comes from a client credentials grant, whose
		 * authorization Spring Authorization Server saves without one.
		 */
		@Bean
		OAuth2AuthorizationService authorizationService() {
			InMemoryOAuth2AuthorizationService store = new InMemoryOAuth2AuthorizationService();
			return new OAuth2AuthorizationService() {

				@Override
				public void save(OAuth2Authorization authorization) {
					OAuth2Authorization saved = authorization;
					if (saved.getAttribute(Principal.class.getName()) == null) {
						saved = OAuth2Authorization.from(saved)
							.attribute(Principal.class.getName(), UsernamePasswordAuthenticationToken
								.authenticated(saved.getPrincipalName(), null, List.of()))
							.build();
					}
					store.save(saved);
				}

				@Override
				public void remove(OAuth2Authorization authorization) {
					store.remove(authorization);
				}

				@Override
				public @Nullable OAuth2Authorization findById(String id) {
					return store.findById(id);
				}

				@Override
				public @Nullable OAuth2Authorization findByToken(String token, @Nullable OAuth2TokenType tokenType) {
					return store.findByToken(token, tokenType);
				}

			};
		}

		/** RFC 8707: an exchanged token's audience is the resource the client asked for. */
		@Bean
		OAuth2TokenCustomizer<JwtEncodingContext> audienceFromResource(Counters counters) {
			return (context) -> {
				if (context.getAuthorizationGrant() instanceof OAuth2ClientCredentialsAuthenticationToken grant
						&& grant.getAdditionalParameters().get("resource") != null) {
					context.getClaims().audience(List.of(grant.getAdditionalParameters().get("resource").toString()));
				}
				if (context.getAuthorizationGrant() instanceof OAuth2TokenExchangeAuthenticationToken exchange) {
					counters.resources.addAll(exchange.getResources());
					if (!exchange.getResources().isEmpty()) {
						context.getClaims().audience(List.copyOf(exchange.getResources()));
					}
					counters.exchanges.computeIfAbsent(context.getPrincipal().getName(), (k) -> new AtomicInteger())
						.incrementAndGet();
				}
			};
		}

		/** After Spring Security: the subject of each accepted token, for the MCP server to see. */
		@Bean
		FilterRegistrationBean<Filter> subjectRecorder(Counters counters) {
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(
					(Filter) (request, response, chain) -> {
						Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
						if (((HttpServletRequest) request).getMethod().equals("DELETE")) {
							counters.deletes.incrementAndGet();
						}
						if (authentication instanceof JwtAuthenticationToken jwt) {
							request.setAttribute("subject", jwt.getToken().getSubject());
							counters.acceptedTokens
								.computeIfAbsent(jwt.getToken().getSubject(), (k) -> ConcurrentHashMap.newKeySet())
								.add(jwt.getToken().getId());
						}
						chain.doFilter(request, response);
					});
			registration.addUrlPatterns("/mcp");
			registration.setOrder(Ordered.LOWEST_PRECEDENCE);
			return registration;
		}

		@Bean
		@ConditionalOnProperty(name = ERA, havingValue = "modern")
		ServletRegistrationBean<ModernWhoamiServer> modernMcpServlet(Counters counters) {
			return new ServletRegistrationBean<>(new ModernWhoamiServer(counters), "/mcp");
		}

		@Bean
		@ConditionalOnProperty(name = ERA, havingValue = "legacy")
		HttpServletStreamableServerTransportProvider mcpTransport() {
			return HttpServletStreamableServerTransportProvider.builder()
				.mcpEndpoint("/mcp")
				.sessionSweepInterval(null)
				.contextExtractor((HttpServletRequest request) -> McpTransportContext
					.create(Map.of("subject", String.valueOf(request.getAttribute("subject")))))
				.build();
		}

		@Bean(destroyMethod = "close")
		@ConditionalOnProperty(name = ERA, havingValue = "legacy")
		McpSyncServer mcpServer(HttpServletStreamableServerTransportProvider transport, Counters counters) {
			Tool whoami = Tool.builder()
				.name("whoami")
				.description("answers with the caller's subject and the text")
				.inputSchema(new JsonSchema("object", Map.of("text", Map.of("type", "string")), List.of("text"), null,
						null, null))
				.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
				.build();
			return McpServer.sync(transport)
				.serverInfo("per-user-java-sdk-server", "1.0")
				// the tool on the request's own thread: by default the SDK runs it on Reactor's
				// boundedElastic, which a streaming Spring AI client in this same JVM fills with tool
				// calls waiting for this server, and a handler queued behind one of them never runs
				.immediateExecution(true)
				.capabilities(ServerCapabilities.builder().tools(true).build())
				.tools(SyncToolSpecification.builder().tool(whoami).callHandler((exchange, request) -> {
					String subject = String.valueOf(exchange.transportContext().get("subject"));
					String session = exchange.sessionId();
					counters.executions.computeIfAbsent(subject, (k) -> new AtomicInteger()).incrementAndGet();
					counters.sessions.computeIfAbsent(subject, (k) -> ConcurrentHashMap.newKeySet()).add(session);
					counters.subjectsOfSession.computeIfAbsent(session, (k) -> ConcurrentHashMap.newKeySet())
						.add(subject);
					return CallToolResult.builder()
						.addTextContent(subject + ":" + request.arguments().get("text"))
						.isError(false)
						.build();
				}).build())
				.build();
		}

		@Bean
		@ConditionalOnProperty(name = ERA, havingValue = "legacy")
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
