package dev.mcpx.sample.secure;

import java.security.Principal;
import java.time.Duration;
import java.util.List;

import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;
import org.springframework.security.oauth2.server.authorization.InMemoryOAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2Authorization;
import org.springframework.security.oauth2.server.authorization.OAuth2AuthorizationService;
import org.springframework.security.oauth2.server.authorization.OAuth2TokenType;
import org.springframework.security.web.SecurityFilterChain;

/**
 * The signed-in users of the sample: {@code alice} and {@code bob} get a token of their own
 * from the embedded authorization server ({@code application.yml} registers each as a client
 * of the client credentials grant, a stand-in for a real sign-in that curl can show), and call
 * the sample's endpoints under {@value #PATHS} with it as a bearer token. There the user is in
 * Spring Security's {@code SecurityContext}, where mcpx finds them: an upstream with
 * {@code oauth.identity: user} exchanges that token for one to the upstream (RFC 8693).
 */
@Configuration(proxyBeanMethods = false)
public class SignedInUsers {

	/** The sample's endpoints that act for the user whose bearer token they carry. */
	public static final String PATHS = "/me/**";

	/**
	 * Any unexpired token of the embedded authorization server is a signed-in user here. Its
	 * own decoder, not a bean: the secure upstream's decoder accepts only tokens issued for the
	 * upstream, so a user's own token never reaches the upstream without the exchange.
	 */
	@Bean
	@Order(2)
	SecurityFilterChain signedInUsersChain(HttpSecurity http, JWKSource<SecurityContext> jwkSource)
			throws Exception {
		NimbusJwtDecoder decoder = NimbusJwtDecoder.withJwkSource(jwkSource).build();
		decoder.setJwtValidator(new JwtTimestampValidator(Duration.ZERO));
		http.securityMatcher(PATHS)
			.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
			.oauth2ResourceServer((resourceServer) -> resourceServer.jwt((jwt) -> jwt.decoder(decoder)))
			.csrf((csrf) -> csrf.disable())
			.sessionManagement((session) -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS));
		return http.build();
	}

	/**
	 * Every authorization in memory, each with the principal a token exchange takes as the
	 * subject of the token it issues. Spring Authorization Server saves a client credentials
	 * grant (the users' demo sign-in) without one, and would refuse to exchange its token.
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
						.attribute(Principal.class.getName(),
								UsernamePasswordAuthenticationToken.authenticated(saved.getPrincipalName(), null,
										List.of()))
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

}
