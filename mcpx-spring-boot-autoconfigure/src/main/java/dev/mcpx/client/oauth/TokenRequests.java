package dev.mcpx.client.oauth;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import com.nimbusds.jose.jwk.JWK;
import org.jspecify.annotations.Nullable;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.endpoint.AbstractOAuth2AuthorizationGrantRequest;
import org.springframework.security.oauth2.client.endpoint.AbstractRestClientOAuth2AccessTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.DefaultOAuth2TokenRequestParametersConverter;
import org.springframework.security.oauth2.client.endpoint.NimbusJwtClientAuthenticationParametersConverter;
import org.springframework.security.oauth2.client.endpoint.OAuth2AuthorizationCodeGrantRequest;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.endpoint.OAuth2RefreshTokenGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientRefreshTokenTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientTokenExchangeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.TokenExchangeGrantRequest;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.ClassUtils;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import dev.mcpx.client.internal.protocol.Redaction;

/**
 * The token requests of one upstream, made by Spring Security's token response clients:
 * client authentication ({@code client_secret_basic}, {@code client_secret_post},
 * {@code none}, {@code private_key_jwt} through Nimbus), the PKCE {@code code_verifier}, and
 * RFC 8707 {@code resource} on every request (2025-11-25 basic/authorization §Resource
 * Parameter Implementation). Redirects are never followed.
 */
final class TokenRequests {

	private static final String TOKEN_EXCHANGE = "token exchange";

	/** Spring Security's code for a token response that could not be read at all. */
	private static final String INVALID_TOKEN_RESPONSE = "invalid_token_response";

	private final String upstream;

	private final java.util.function.Supplier<List<String>> knownSecrets;

	private final RestClientAuthorizationCodeTokenResponseClient authorizationCode = new RestClientAuthorizationCodeTokenResponseClient();

	private final RestClientClientCredentialsTokenResponseClient clientCredentials = new RestClientClientCredentialsTokenResponseClient();

	private final RestClientRefreshTokenTokenResponseClient refreshToken = new RestClientRefreshTokenTokenResponseClient();

	private final RestClientTokenExchangeTokenResponseClient tokenExchange = new RestClientTokenExchangeTokenResponseClient();

	/**
	 * Creates the token requests of one upstream.
	 * @param upstream the upstream name
	 * @param resource the {@code resource} each request names, or a function of the grant
	 * request giving it
	 * @param jwk the key of {@code private_key_jwt} client authentication, or {@code null}
	 * @param connectTimeout the bound of a connection
	 * @param readTimeout the bound of a response
	 * @param knownSecrets the tokens and secrets the client holds, scrubbed from the server's
	 * error messages
	 */
	public TokenRequests(String upstream, Function<ClientRegistration, String> resource, @Nullable JWK jwk,
			Duration connectTimeout, Duration readTimeout, java.util.function.Supplier<List<String>> knownSecrets) {
		this.upstream = upstream;
		this.knownSecrets = knownSecrets;
		HttpClient http = HttpClient.newBuilder()
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(connectTimeout)
			.version(HttpClient.Version.HTTP_1_1)
			.build();
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(http);
		factory.setReadTimeout(readTimeout);
		RestClient restClient = RestClient.builder().requestFactory(factory).messageConverters((converters) -> {
			converters.clear();
			converters.add(new FormHttpMessageConverter());
			converters.add(new OAuth2AccessTokenResponseHttpMessageConverter());
		}).defaultStatusHandler(new OAuth2ErrorResponseErrorHandler()).build();
		restClient = redactingForms(restClient);
		configure(this.authorizationCode, restClient, resource, jwk);
		configure(this.clientCredentials, restClient, resource, jwk);
		configure(this.refreshToken, restClient, resource, jwk);
		configure(this.tokenExchange, restClient, resource, jwk);
	}

	private static <T extends AbstractOAuth2AuthorizationGrantRequest> void configure(
			AbstractRestClientOAuth2AccessTokenResponseClient<T> client, RestClient restClient,
			Function<ClientRegistration, String> resource, @Nullable JWK jwk) {
		client.setRestClient(restClient);
		DefaultOAuth2TokenRequestParametersConverter<T> defaults = new DefaultOAuth2TokenRequestParametersConverter<>();
		NimbusJwtClientAuthenticationParametersConverter<T> assertion = (jwk != null)
				? new NimbusJwtClientAuthenticationParametersConverter<>((registration) -> jwk) : null;
		if (assertion != null) {
			// RFC 7523 §3: the audience identifies the authorization server; its issuer does
			assertion.setJwtClientAssertionCustomizer((context) -> {
				String issuer = context.getAuthorizationGrantRequest()
					.getClientRegistration()
					.getProviderDetails()
					.getIssuerUri();
				if (issuer != null) {
					context.getClaims().audience(List.of(issuer));
				}
			});
		}
		client.setParametersConverter((request) -> {
			RedactedParameters parameters = new RedactedParameters();
			parameters.addAll(defaults.convert(request));
			parameters.add("resource", resource.apply(request.getClientRegistration()));
			MultiValueMap<String, String> jwt = (assertion != null) ? assertion.convert(request) : null;
			if (jwt != null) {
				parameters.addAll(jwt);
			}
			return parameters;
		});
	}

	/**
	 * A RestClient that sends every form body as {@link RedactedParameters}: Spring
	 * Security's token clients hand RestClient a plain map, whose {@code toString()} (logged
	 * at DEBUG) would show the refresh token, the code verifier or the client secret.
	 */
	static RestClient redactingForms(RestClient client) {
		return (RestClient) wrap(client, RestClient.class);
	}

	private static Object wrap(Object target, Class<?>... types) {
		return Proxy.newProxyInstance(TokenRequests.class.getClassLoader(), types, (proxy, method, args) -> {
			Object[] arguments = args;
			if (method.getName().equals("body") && args != null && args.length == 1
					&& args[0] instanceof MultiValueMap<?, ?> form && !(form instanceof RedactedParameters)) {
				RedactedParameters redacted = new RedactedParameters();
				form.forEach((name, values) -> values
					.forEach((value) -> redacted.add(String.valueOf(name), String.valueOf(value))));
				arguments = new Object[] { redacted };
			}
			Object result;
			try {
				result = method.invoke(target, arguments);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
			if (result != null && result != target && method.getReturnType().getName().startsWith(REQUEST_SPECS)) {
				// the request specs of RestClient (uri, headers, body return one), and no other type
				Class<?>[] interfaces = ClassUtils.getAllInterfacesAsSet(result)
					.stream()
					.filter((type) -> type.getName().startsWith(REQUEST_SPECS))
					.toArray(Class<?>[]::new);
				return wrap(result, interfaces);
			}
			return (result == target) ? proxy : result;
		});
	}

	private static final String REQUEST_SPECS = "org.springframework.web.client.RestClient$Request";

	/**
	 * The form of a token request. RestClient logs a request body at DEBUG through its
	 * {@code toString()}: the names, never the values (codes, refresh tokens, secrets,
	 * assertions).
	 */
	static final class RedactedParameters extends LinkedMultiValueMap<String, String> {

		@Override
		public String toString() {
			return "token request parameters " + keySet();
		}

	}

	/**
	 * Redeems an authorization code.
	 * @param registration the client
	 * @param exchange the authorization request (with the PKCE verifier) and response
	 * @return the token response
	 */
	public OAuth2AccessTokenResponse authorizationCode(ClientRegistration registration,
			OAuth2AuthorizationExchange exchange) {
		return send(registration, "authorization code", List.of(), () -> this.authorizationCode
			.getTokenResponse(new OAuth2AuthorizationCodeGrantRequest(registration, exchange)));
	}

	/**
	 * Requests a token with the client's own credentials.
	 * @param registration the client, with the scopes to request
	 * @return the token response
	 */
	public OAuth2AccessTokenResponse clientCredentials(ClientRegistration registration) {
		return send(registration, "client credentials", List.of(),
				() -> this.clientCredentials.getTokenResponse(new OAuth2ClientCredentialsGrantRequest(registration)));
	}

	/**
	 * Exchanges a refresh token for a new access token.
	 * @param registration the client
	 * @param accessToken the access token being replaced
	 * @param refreshToken the refresh token
	 * @param scopes the scopes to request, or empty for those granted before
	 * @return the token response
	 */
	public OAuth2AccessTokenResponse refresh(ClientRegistration registration, OAuth2AccessToken accessToken,
			OAuth2RefreshToken refreshToken, Set<String> scopes) {
		return send(registration, "refresh token",
				List.of(accessToken.getTokenValue(), refreshToken.getTokenValue()), () -> this.refreshToken
			.getTokenResponse(new OAuth2RefreshTokenGrantRequest(registration, accessToken, refreshToken, scopes)));
	}

	/**
	 * Exchanges a user's access token for one whose audience is the upstream (RFC 8693 §2.1,
	 * {@code resource} per RFC 8707 as on every request).
	 * @param registration the client, with the scopes to request
	 * @param subjectToken the user's access token
	 * @return the token response
	 */
	public OAuth2AccessTokenResponse tokenExchange(ClientRegistration registration, String subjectToken) {
		return send(registration, TOKEN_EXCHANGE, List.of(subjectToken),
				() -> this.tokenExchange.getTokenResponse(new TokenExchangeGrantRequest(registration,
						new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, subjectToken, null, null), null)));
	}

	private OAuth2AccessTokenResponse send(ClientRegistration registration, String grant, List<String> sent,
			java.util.function.Supplier<OAuth2AccessTokenResponse> request) {
		String endpoint = registration.getProviderDetails().getTokenUri();
		try {
			return request.get();
		}
		catch (OAuth2AuthorizationException ex) {
			Throwable unanswered = ex.getCause();
			if (INVALID_TOKEN_RESPONSE.equals(ex.getError().getErrorCode()) && unanswered != null) {
				// not the server's refusal: no response could be read (the server is down, the
				// connection broke); the failure's type only, its message may quote the response
				while (unanswered.getCause() != null) {
					unanswered = unanswered.getCause();
				}
				throw new McpAuthorizationException(this.upstream, "the " + grant + " token request to " + endpoint
						+ " failed: no answer from the authorization server (" + unanswered.getClass().getSimpleName()
						+ ")", null);
			}
			// the error is the server's words, which may echo what the client sent: scrubbed,
			// and the original (whose message holds them too) is not kept as the cause
			List<String> secrets = new java.util.ArrayList<>();
			if (registration.getClientSecret() != null && !registration.getClientSecret().isEmpty()) {
				secrets.add(registration.getClientSecret());
			}
			secrets.addAll(sent);
			secrets.addAll(this.knownSecrets.get());
			// a token exchange acts for a user, whom the server's description may name (RFC 8693
			// §2.2.2): its error code alone is shown
			String description = grant.equals(TOKEN_EXCHANGE) ? null : ex.getError().getDescription();
			throw new McpAuthorizationException(this.upstream, "the " + grant + " token request to " + endpoint
					+ " was refused: " + new Redaction().scrub(ex.getError().getErrorCode(), secrets)
					+ ((description != null) ? " (" + new Redaction().scrub(description, secrets) + ")" : ""), null);
		}
		catch (RestClientException | IllegalArgumentException ex) {
			// no cause: a parse failure's message may quote the response, tokens included
			throw new McpAuthorizationException(this.upstream,
					"the " + grant + " token request to " + endpoint + " failed: " + ex.getClass().getSimpleName(),
					null);
		}
	}

}
