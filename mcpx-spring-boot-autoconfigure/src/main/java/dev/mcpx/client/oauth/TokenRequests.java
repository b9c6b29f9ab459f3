package dev.mcpx.client.oauth;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.nimbusds.jose.jwk.JWK;
import org.jspecify.annotations.Nullable;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.endpoint.AbstractOAuth2AuthorizationGrantRequest;
import org.springframework.security.oauth2.client.endpoint.AbstractRestClientOAuth2AccessTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.DefaultOAuth2TokenRequestParametersConverter;
import org.springframework.security.oauth2.client.endpoint.JwtBearerGrantRequest;
import org.springframework.security.oauth2.client.endpoint.NimbusJwtClientAuthenticationParametersConverter;
import org.springframework.security.oauth2.client.endpoint.OAuth2AuthorizationCodeGrantRequest;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.endpoint.OAuth2RefreshTokenGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientJwtBearerTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientRefreshTokenTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientTokenExchangeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.TokenExchangeGrantRequest;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.endpoint.DefaultMapOAuth2AccessTokenResponseConverter;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.security.oauth2.jwt.Jwt;
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

	private final String upstream;

	private final java.util.function.Supplier<List<String>> knownSecrets;

	private final RestClientAuthorizationCodeTokenResponseClient authorizationCode = new RestClientAuthorizationCodeTokenResponseClient();

	private final RestClientClientCredentialsTokenResponseClient clientCredentials = new RestClientClientCredentialsTokenResponseClient();

	private final RestClientRefreshTokenTokenResponseClient refreshToken = new RestClientRefreshTokenTokenResponseClient();

	private final RestClientJwtBearerTokenResponseClient jwtBearer = new RestClientJwtBearerTokenResponseClient();

	private final RestClientTokenExchangeTokenResponseClient tokenExchange = new RestClientTokenExchangeTokenResponseClient();

	/** The exchange of a user's access token for one for the upstream (a per-user upstream). */
	private final RestClientTokenExchangeTokenResponseClient userTokenExchange = new RestClientTokenExchangeTokenResponseClient();

	/** How a per-user upstream's exchange is named in messages. */
	private static final String USER_TOKEN_EXCHANGE = "user's token exchange";

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
		RestClient restClient = restClient(factory, new OAuth2AccessTokenResponseHttpMessageConverter());
		configure(this.authorizationCode, restClient, resource, jwk, NO_EXTRAS);
		configure(this.clientCredentials, restClient, resource, jwk, NO_EXTRAS);
		configure(this.refreshToken, restClient, resource, jwk, NO_EXTRAS);
		configure(this.jwtBearer, restClient, resource, jwk, TokenRequests::anonymous);
		configure(this.userTokenExchange, restClient, resource, jwk, NO_EXTRAS);
		// the identity provider's client is another, authenticated with its own secret
		configure(this.tokenExchange, restClient(factory, exchangeResponses()), resource, null,
				TokenRequests::identityAssertionExchange);
	}

	private static RestClient restClient(JdkClientHttpRequestFactory factory,
			OAuth2AccessTokenResponseHttpMessageConverter responses) {
		return redactingForms(RestClient.builder().requestFactory(factory).messageConverters((converters) -> {
			converters.clear();
			converters.add(new FormHttpMessageConverter());
			converters.add(responses);
		}).defaultStatusHandler(new OAuth2ErrorResponseErrorHandler()).build());
	}

	/**
	 * The registration metadata key of a client without an identity at the authorization
	 * server: a JWT bearer grant whose assertion alone identifies the workload (RFC 7523 §3:
	 * client authentication is optional), sent without {@code client_id}.
	 */
	static final String ANONYMOUS = "mcpx.anonymous";

	/** The registration metadata keys of a token exchange (RFC 8693 §2.1). */
	static final String AUDIENCE = "audience";

	static final String SUBJECT_TOKEN_TYPE = "subject_token_type";

	/** RFC 8693 §2.1 {@code requested_token_type} of an identity assertion authorization grant. */
	static final String ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";

	private static final java.util.function.BiConsumer<ClientRegistration, MultiValueMap<String, String>> NO_EXTRAS = (
			registration, parameters) -> {
	};

	private static void anonymous(ClientRegistration registration, MultiValueMap<String, String> parameters) {
		if (Boolean.TRUE.equals(registration.getProviderDetails().getConfigurationMetadata().get(ANONYMOUS))) {
			// Spring Security puts these parameters over its defaults (putAll): a key with no
			// values replaces its client_id, and a form writes nothing for it
			parameters.put("client_id", new ArrayList<>());
		}
	}

	/**
	 * Enterprise-managed authorization §4: the ID-JAG is requested for the upstream's
	 * authorization server ({@code audience}, its issuer) and the upstream ({@code resource});
	 * the identity assertion is an ID token or a SAML assertion.
	 */
	private static void identityAssertionExchange(ClientRegistration registration,
			MultiValueMap<String, String> parameters) {
		Map<String, Object> metadata = registration.getProviderDetails().getConfigurationMetadata();
		parameters.set("requested_token_type", ID_JAG);
		parameters.set(SUBJECT_TOKEN_TYPE, String.valueOf(metadata.get(SUBJECT_TOKEN_TYPE)));
		parameters.set(AUDIENCE, String.valueOf(metadata.get(AUDIENCE)));
	}

	/**
	 * The token exchange response of an identity provider carries {@code token_type}
	 * {@code N_A} (RFC 8693 §2.2.1: the issued token is not an access token), which Spring
	 * Security's response converter does not know; it is read as any other type, and what
	 * was issued is judged by {@code issued_token_type}.
	 */
	private static OAuth2AccessTokenResponseHttpMessageConverter exchangeResponses() {
		DefaultMapOAuth2AccessTokenResponseConverter defaults = new DefaultMapOAuth2AccessTokenResponseConverter();
		OAuth2AccessTokenResponseHttpMessageConverter converter = new OAuth2AccessTokenResponseHttpMessageConverter();
		converter.setAccessTokenResponseConverter((parameters) -> {
			Map<String, Object> copy = new HashMap<>(parameters);
			Object type = copy.get("token_type");
			if (type == null || "N_A".equalsIgnoreCase(type.toString())) {
				copy.put("token_type", OAuth2AccessToken.TokenType.BEARER.getValue());
			}
			return defaults.convert(copy);
		});
		return converter;
	}

	private static <T extends AbstractOAuth2AuthorizationGrantRequest> void configure(
			AbstractRestClientOAuth2AccessTokenResponseClient<T> client, RestClient restClient,
			Function<ClientRegistration, String> resource, @Nullable JWK jwk,
			java.util.function.BiConsumer<ClientRegistration, MultiValueMap<String, String>> extras) {
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
			extras.accept(request.getClientRegistration(), parameters);
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
	 * Presents an assertion as an RFC 7523 JWT bearer grant (§2.1): {@code grant_type}
	 * {@code urn:ietf:params:oauth:grant-type:jwt-bearer}, {@code assertion}, {@code scope}.
	 * @param registration the client, with the scopes to request
	 * @param assertion the assertion
	 * @return the token response
	 */
	public OAuth2AccessTokenResponse jwtBearer(ClientRegistration registration, Jwt assertion) {
		return send(registration, "jwt-bearer", List.of(assertion.getTokenValue()),
				() -> this.jwtBearer.getTokenResponse(new JwtBearerGrantRequest(registration, assertion)));
	}

	/**
	 * Exchanges an identity assertion at the identity provider for an identity assertion
	 * authorization grant (RFC 8693 §2.1; enterprise-managed authorization §4).
	 * @param registration the client at the identity provider, its metadata holding the
	 * {@code resource}, {@code audience} and {@code subject_token_type}
	 * @param subjectToken the identity assertion
	 * @return the token response, the grant in its access token
	 */
	public OAuth2AccessTokenResponse tokenExchange(ClientRegistration registration, String subjectToken) {
		OAuth2AccessToken subject = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, subjectToken, null, null);
		return send(registration, "token exchange", List.of(subjectToken),
				() -> this.tokenExchange.getTokenResponse(new TokenExchangeGrantRequest(registration, subject, null)));
	}

	/**
	 * Exchanges a user's access token for one whose audience is the upstream (RFC 8693 §2.1,
	 * {@code subject_token_type} access token, {@code requested_token_type} access token;
	 * {@code resource} per RFC 8707 as on every request).
	 * @param registration the application's client, with the scopes to request
	 * @param subjectToken the user's access token
	 * @return the token response
	 */
	public OAuth2AccessTokenResponse userTokenExchange(ClientRegistration registration, String subjectToken) {
		OAuth2AccessToken subject = new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, subjectToken, null, null);
		return send(registration, USER_TOKEN_EXCHANGE, List.of(subjectToken),
				() -> this.userTokenExchange.getTokenResponse(new TokenExchangeGrantRequest(registration, subject, null)));
	}

	private OAuth2AccessTokenResponse send(ClientRegistration registration, String grant, List<String> sent,
			java.util.function.Supplier<OAuth2AccessTokenResponse> request) {
		String endpoint = registration.getProviderDetails().getTokenUri();
		try {
			return request.get();
		}
		catch (OAuth2AuthorizationException ex) {
			if (ex.getCause() instanceof RestClientException failure) {
				// no answer to read: the server could not be reached, or its answer not parsed
				throw failed(grant, endpoint, failure);
			}
			// the error is the server's words, which may echo what the client sent: scrubbed,
			// and the original (whose message holds them too) is not kept as the cause
			List<String> secrets = new java.util.ArrayList<>();
			if (registration.getClientSecret() != null && !registration.getClientSecret().isEmpty()) {
				secrets.add(registration.getClientSecret());
			}
			secrets.addAll(sent);
			secrets.addAll(this.knownSecrets.get());
			// the exchange of a user's token acts for that user, whom the server's description
			// may name: its error code alone is shown
			String description = grant.equals(USER_TOKEN_EXCHANGE) ? null : ex.getError().getDescription();
			throw new McpAuthorizationException(this.upstream, "the " + grant + " token request to " + endpoint
					+ " was refused: " + new Redaction().scrub(ex.getError().getErrorCode(), secrets)
					+ ((description != null) ? " (" + new Redaction().scrub(description, secrets) + ")" : ""), null);
		}
		catch (RestClientException | IllegalArgumentException ex) {
			throw failed(grant, endpoint, ex);
		}
	}

	private McpAuthorizationException failed(String grant, String endpoint, RuntimeException ex) {
		// no cause: a parse failure's message may quote the response, tokens included; the
		// type of its cause says whether the server was unreachable (ConnectException)
		Throwable cause = ex.getCause();
		return new McpAuthorizationException(this.upstream,
				"the " + grant + " token request to " + endpoint + " failed: " + ex.getClass().getSimpleName()
						+ ((cause != null) ? " (" + cause.getClass().getSimpleName() + ")" : ""),
				null);
	}

}
