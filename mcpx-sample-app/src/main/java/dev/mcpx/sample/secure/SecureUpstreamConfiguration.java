package dev.mcpx.sample.secure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
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
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
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
import org.springframework.security.oauth2.server.authorization.authentication.OAuth2TokenExchangeAuthenticationToken;
import org.springframework.security.oauth2.server.authorization.token.JwtEncodingContext;
import org.springframework.security.oauth2.server.authorization.token.OAuth2TokenCustomizer;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The second demo upstream, {@value #PATH}: the official MCP Java SDK server with one tool,
 * {@code whoami}, behind Spring Security's resource server, which accepts only JWTs that
 * Spring Authorization Server (in this application too, at {@code /oauth2/token}) issued for
 * this resource (RFC 8707: the audience is the {@code resource} the client asked for). A
 * request without one is answered 401 with the resource's metadata (RFC 9728), where mcpx
 * finds the authorization server. A user's own token ({@link SignedInUsers}) is not for this
 * resource either: mcpx exchanges it for one that is (RFC 8693). Every other path of the
 * application stays open.
 */
@Configuration(proxyBeanMethods = false)
public class SecureUpstreamConfiguration {

	/** The path the secure upstream is served at. */
	public static final String PATH = "/secure/mcp";

	/** The scope a token needs to reach the secure upstream. */
	public static final String SCOPE = "tickets:read";

	@Bean
	SecureCalls secureCalls() {
		return new SecureCalls();
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

	/** After the authorization server and the signed-in users' endpoints ({@link SignedInUsers}). */
	@Bean
	@Order(3)
	SecurityFilterChain resourceServerChain(HttpSecurity http, WebServerApplicationContext server) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.requestMatchers(PATH)
			.hasAuthority("SCOPE_" + SCOPE)
			.anyRequest()
			.permitAll())
			.oauth2ResourceServer((resourceServer) -> resourceServer.jwt(Customizer.withDefaults())
				.protectedResourceMetadata((metadata) -> metadata
					.protectedResourceMetadataCustomizer((builder) -> builder.resource(base(server) + PATH)
						.authorizationServers((servers) -> {
							servers.clear();
							servers.add(base(server));
						})
						.scopes((scopes) -> {
							scopes.clear();
							scopes.add(SCOPE);
						}))))
			// the sample's own endpoints (POST /demo/restart, ...) are called with curl
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
		return http.build();
	}

	/** Only tokens issued for this resource, and expired ones are refused. */
	@Bean
	JwtDecoder jwtDecoder(JWKSource<SecurityContext> jwkSource, WebServerApplicationContext server) {
		NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(jwkSource).build();
		decoder.setJwtValidator(new DelegatingOAuth2TokenValidator<>(new JwtTimestampValidator(Duration.ZERO),
				(jwt) -> (jwt.getAudience() != null && jwt.getAudience().contains(base(server) + PATH))
						? OAuth2TokenValidatorResult.success()
						: OAuth2TokenValidatorResult
							.failure(new OAuth2Error("invalid_token", "not issued for this resource", null))));
		return decoder;
	}

	/**
	 * RFC 8707: the token's audience is the resource the client named, by client credentials
	 * or by token exchange (RFC 8693: a user's token exchanged for one to this resource, whose
	 * subject stays the user). Every token names the client it was issued to in
	 * {@code client_id} (RFC 9068 §2.2): for an exchanged token, the application, not the user.
	 */
	@Bean
	OAuth2TokenCustomizer<JwtEncodingContext> audienceFromResource(SecureCalls calls) {
		return (context) -> {
			context.getClaims().claim("client_id", context.getRegisteredClient().getClientId());
			if (context.getAuthorizationGrant() instanceof OAuth2ClientCredentialsAuthenticationToken grant) {
				Object resource = grant.getAdditionalParameters().get("resource");
				if (resource != null) {
					context.getClaims().audience(List.of(resource.toString()));
				}
			}
			if (context.getAuthorizationGrant() instanceof OAuth2TokenExchangeAuthenticationToken exchange) {
				if (!exchange.getResources().isEmpty()) {
					context.getClaims().audience(List.copyOf(exchange.getResources()));
				}
				calls.tokenExchanged();
			}
			calls.tokenIssued();
		};
	}

	@Bean
	HttpServletStreamableServerTransportProvider secureTransport() {
		return HttpServletStreamableServerTransportProvider.builder()
			.mcpEndpoint(PATH)
			.sessionSweepInterval(null)
			// read on the request's thread, after Spring Security checked the token: who it is for
			.contextExtractor((request) -> {
				Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
				if (authentication instanceof JwtAuthenticationToken jwt) {
					Object clientId = jwt.getToken().getClaims().get("client_id");
					return McpTransportContext.create(Map.of("subject", jwt.getName(), "clientId",
							(clientId != null) ? clientId.toString() : jwt.getName()));
				}
				return McpTransportContext.EMPTY;
			})
			.build();
	}

	@Bean(destroyMethod = "close")
	McpSyncServer secureServer(HttpServletStreamableServerTransportProvider secureTransport, SecureCalls calls) {
		Tool whoami = Tool.builder()
			.name("whoami")
			.title("Who am I")
			.description("Who the server thinks is calling: the subject of the access token.")
			.inputSchema(new JsonSchema("object", Map.of(), List.of(), null, null, null))
			.annotations(ToolAnnotations.builder().readOnlyHint(true).openWorldHint(false).build())
			.build();
		return McpServer.sync(secureTransport)
			.serverInfo("mcpx-demo-secure", "1.0.0")
			.capabilities(ServerCapabilities.builder().tools(false).build())
			.tools(SyncToolSpecification.builder().tool(whoami).callHandler((exchange, request) -> {
				McpTransportContext context = exchange.transportContext();
				String subject = String.valueOf(context.get("subject"));
				String clientId = String.valueOf(context.get("clientId"));
				calls.record("whoami", subject, clientId);
				return CallToolResult.builder()
					.addTextContent("You are " + subject + " (token issued to client " + clientId + ")")
					.isError(false)
					.build();
			}).build())
			.build();
	}

	@Bean
	ServletRegistrationBean<HttpServletStreamableServerTransportProvider> secureUpstreamServlet(
			HttpServletStreamableServerTransportProvider secureTransport) {
		ServletRegistrationBean<HttpServletStreamableServerTransportProvider> registration = new ServletRegistrationBean<>(
				secureTransport, PATH);
		registration.setName("secureUpstream");
		registration.setAsyncSupported(true);
		registration.setLoadOnStartup(1);
		return registration;
	}

	/** Read when a request comes, once the server is up and its port known. */
	private static String base(WebServerApplicationContext server) {
		return "http://127.0.0.1:" + Objects.requireNonNull(server.getWebServer(), "web server").getPort();
	}

}
