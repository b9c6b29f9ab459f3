package dev.mcpx.testsupport;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.oauth2.server.authorization.OAuth2AuthorizationServerConfigurer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2Error;
import org.springframework.security.oauth2.core.OAuth2TokenValidatorResult;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.web.SecurityFilterChain;

/**
 * A running Spring Boot application that is both a real authorization server (Spring
 * Authorization Server) and a protected MCP endpoint ({@code /mcp}, guarded by Spring
 * Security's resource server), on 127.0.0.1 and a free port. What such test applications
 * share lives here: starting one with its registered clients, its addresses, and the beans of
 * {@link Security} (the two filter chains and a token decoder with no clock skew that accepts
 * only tokens issued for {@code /mcp}). Each test application adds its own MCP server, token
 * customizer and counters.
 */
public final class SpringAuthorizationServer implements AutoCloseable {

	/** The scope the MCP endpoint requires. */
	public static final String SCOPE = "mcp:tools";

	private static final String CLIENTS = "spring.security.oauth2.authorizationserver.client.";

	private final ConfigurableApplicationContext context;

	private SpringAuthorizationServer(ConfigurableApplicationContext context) {
		this.context = context;
	}

	/**
	 * Starts a test application.
	 * @param configuration its configuration, which imports {@link Security}
	 * @param properties its properties, the registered clients among them
	 * ({@link #client(Map, String, String, String, String, Duration)})
	 * @return the running application
	 */
	public static SpringAuthorizationServer start(Class<?> configuration, Map<String, Object> properties) {
		Map<String, Object> all = new HashMap<>(Map.of("server.port", "0", "server.address", "127.0.0.1",
				"spring.main.banner-mode", "off"));
		all.putAll(properties);
		ConfigurableApplicationContext context = new SpringApplicationBuilder(configuration).properties(all)
			// the module's test application.properties turns Spring Security off for the others
			.run("--spring.autoconfigure.exclude=");
		return new SpringAuthorizationServer(context);
	}

	/**
	 * Registers a client at the authorization server, authenticated with
	 * {@code client_secret_basic} and allowed {@link #SCOPE}.
	 * @param properties the application's properties, added to
	 * @param key the registration's key
	 * @param id the client id
	 * @param secret the client secret
	 * @param grants its grant types, comma-separated
	 * @param lifetime the lifetime of its access tokens
	 */
	public static void client(Map<String, Object> properties, String key, String id, String secret, String grants,
			Duration lifetime) {
		String prefix = CLIENTS + key + ".";
		properties.put(prefix + "registration.client-id", id);
		properties.put(prefix + "registration.client-secret", "{noop}" + secret);
		properties.put(prefix + "registration.client-authentication-methods", "client_secret_basic");
		properties.put(prefix + "registration.authorization-grant-types", grants);
		properties.put(prefix + "registration.scopes", SCOPE);
		properties.put(prefix + "token.access-token-time-to-live", lifetime.toMillis() + "ms");
	}

	/**
	 * The port the application listens on.
	 * @return the port
	 */
	public int port() {
		return ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	/**
	 * The protected MCP endpoint.
	 * @return its URL
	 */
	public String mcpUrl() {
		return issuer() + "/mcp";
	}

	/**
	 * The authorization server's issuer identifier.
	 * @return the issuer
	 */
	public String issuer() {
		return "http://127.0.0.1:" + port();
	}

	/**
	 * A bean of the application, such as its counters.
	 * @param <T> its type
	 * @param type its type
	 * @return the bean
	 */
	public <T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	@Override
	public void close() {
		this.context.close();
	}

	private static String base(WebServerApplicationContext server) {
		return "http://127.0.0.1:" + server.getWebServer().getPort();
	}

	/**
	 * The security beans a test application imports. Not a {@code @Configuration}: it is only
	 * ever imported, never found by a component scan.
	 */
	public static class Security {

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

		/** {@code /mcp} needs {@link #SCOPE}; its protected resource metadata (RFC 9728) names it. */
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

	}

}
