package dev.mcpx.client.oauth.internal;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import com.nimbusds.jose.jwk.JWK;
import org.springframework.core.convert.converter.Converter;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.endpoint.AbstractOAuth2AuthorizationGrantRequest;
import org.springframework.security.oauth2.client.endpoint.AbstractRestClientOAuth2AccessTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.NimbusJwtClientAuthenticationParametersConverter;
import org.springframework.security.oauth2.client.endpoint.OAuth2AuthorizationCodeGrantRequest;
import org.springframework.security.oauth2.client.endpoint.OAuth2ClientCredentialsGrantRequest;
import org.springframework.security.oauth2.client.endpoint.OAuth2RefreshTokenGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientRefreshTokenTokenResponseClient;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

import dev.mcpx.client.oauth.McpAuthorizationException;

/**
 * The token requests of one upstream, made by Spring Security's token response clients:
 * client authentication ({@code client_secret_basic}, {@code client_secret_post},
 * {@code none}, {@code private_key_jwt} through Nimbus), the PKCE {@code code_verifier}, and
 * RFC 8707 {@code resource} on every request (2025-11-25 basic/authorization §Resource
 * Parameter Implementation). Redirects are never followed.
 */
public final class TokenRequests {

	private final String upstream;

	private final RestClientAuthorizationCodeTokenResponseClient authorizationCode = new RestClientAuthorizationCodeTokenResponseClient();

	private final RestClientClientCredentialsTokenResponseClient clientCredentials = new RestClientClientCredentialsTokenResponseClient();

	private final RestClientRefreshTokenTokenResponseClient refreshToken = new RestClientRefreshTokenTokenResponseClient();

	/**
	 * Creates the token requests of one upstream.
	 * @param upstream the upstream name
	 * @param resource the {@code resource} each request names, or a function of the grant
	 * request giving it
	 * @param jwk the key of {@code private_key_jwt} client authentication, or {@code null}
	 * @param connectTimeout the bound of a connection
	 * @param readTimeout the bound of a response
	 */
	public TokenRequests(String upstream, Function<ClientRegistration, String> resource, JWK jwk,
			Duration connectTimeout, Duration readTimeout) {
		this.upstream = upstream;
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
		configure(this.authorizationCode, restClient, resource, jwk);
		configure(this.clientCredentials, restClient, resource, jwk);
		configure(this.refreshToken, restClient, resource, jwk);
	}

	private static <T extends AbstractOAuth2AuthorizationGrantRequest> void configure(
			AbstractRestClientOAuth2AccessTokenResponseClient<T> client, RestClient restClient,
			Function<ClientRegistration, String> resource, JWK jwk) {
		client.setRestClient(restClient);
		Converter<T, MultiValueMap<String, String>> resourceParameter = (request) -> {
			MultiValueMap<String, String> parameters = new LinkedMultiValueMap<>();
			parameters.add("resource", resource.apply(request.getClientRegistration()));
			return parameters;
		};
		client.addParametersConverter(resourceParameter);
		if (jwk != null) {
			NimbusJwtClientAuthenticationParametersConverter<T> assertion = new NimbusJwtClientAuthenticationParametersConverter<>(
					(registration) -> jwk);
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
			client.addParametersConverter(assertion);
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
		return send(registration, "authorization code", () -> this.authorizationCode
			.getTokenResponse(new OAuth2AuthorizationCodeGrantRequest(registration, exchange)));
	}

	/**
	 * Requests a token with the client's own credentials.
	 * @param registration the client, with the scopes to request
	 * @return the token response
	 */
	public OAuth2AccessTokenResponse clientCredentials(ClientRegistration registration) {
		return send(registration, "client credentials",
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
		return send(registration, "refresh token", () -> this.refreshToken
			.getTokenResponse(new OAuth2RefreshTokenGrantRequest(registration, accessToken, refreshToken, scopes)));
	}

	private OAuth2AccessTokenResponse send(ClientRegistration registration, String grant,
			java.util.function.Supplier<OAuth2AccessTokenResponse> request) {
		String endpoint = registration.getProviderDetails().getTokenUri();
		try {
			return request.get();
		}
		catch (OAuth2AuthorizationException ex) {
			// the error code and description are the server's words, never a credential
			throw new McpAuthorizationException(this.upstream, "the " + grant + " token request to " + endpoint
					+ " was refused: " + ex.getError().getErrorCode()
					+ ((ex.getError().getDescription() != null) ? " (" + ex.getError().getDescription() + ")" : ""),
					ex);
		}
		catch (RestClientException | IllegalArgumentException ex) {
			// no cause: a parse failure's message may quote the response, tokens included
			throw new McpAuthorizationException(this.upstream,
					"the " + grant + " token request to " + endpoint + " failed: " + ex.getClass().getSimpleName(),
					null);
		}
	}

}
