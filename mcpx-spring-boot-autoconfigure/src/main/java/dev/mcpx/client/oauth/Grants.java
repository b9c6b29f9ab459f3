package dev.mcpx.client.oauth;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationResponse;
import org.springframework.security.oauth2.core.endpoint.PkceParameterNames;
import org.springframework.security.oauth2.jwt.Jwt;

import dev.mcpx.client.error.McpAuthChallenge;

/**
 * The grants of one upstream's credentials: which scopes a token is requested for, and the
 * token by client credentials, by authorization code with PKCE, or by a refresh token, each
 * counted. The token requests themselves are {@link TokenRequests}'; the client identity
 * they are made with is {@link ClientIdentity}'s.
 */
final class Grants {

	/** The credentials' own logger: one place to turn their story on. */
	private static final Log logger = LogFactory.getLog(McpOAuthCredentials.class);

	private static final String OFFLINE_ACCESS = "offline_access";

	/** RFC 8693 §3: the token type of an OAuth 2.0 access token. */
	private static final String ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

	private final OAuthSettings settings;

	private final ClientIdentity identity;

	private final TokenRequests tokens;

	private final AtomicInteger tokenRequests = new AtomicInteger();

	Grants(OAuthSettings settings, ClientIdentity identity, TokenRequests tokens) {
		this.settings = settings;
		this.identity = identity;
		this.tokens = tokens;
	}

	/**
	 * How many token requests were made (every grant, refreshes included).
	 * @return the count
	 */
	int tokenRequests() {
		return this.tokenRequests.get();
	}

	/**
	 * 2025-11-25 basic/authorization §Scope Selection Strategy: the challenge's scope, else
	 * the resource's {@code scopes_supported}, else none; on a step-up the union with what was
	 * requested before; {@code offline_access} when the server offers it and a user
	 * authorizes (2026-07-28 basic/authorization §Refresh Tokens).
	 */
	Set<String> scopes(McpAuthChallenge challenge, Token.Context context, @Nullable Token previous) {
		Set<String> scopes = new LinkedHashSet<>();
		if (previous != null && challenge.isInsufficientScope()) {
			scopes.addAll(previous.requested);
		}
		if (!challenge.scopes().isEmpty()) {
			scopes.addAll(challenge.scopes());
		}
		else {
			scopes.addAll(context.resource().scopesSupported());
		}
		scopes.addAll(this.settings.scopes);
		if (this.settings.grant == McpOAuthGrant.AUTHORIZATION_CODE && this.settings.subjectTokens == null
				&& context.server().scopesSupported().contains(OFFLINE_ACCESS)) {
			scopes.add(OFFLINE_ACCESS);
		}
		return scopes;
	}

	/**
	 * A token by the grant the credentials were built for.
	 * @param context the resource and its authorization server
	 * @param scopes the scopes to request
	 * @return the token
	 */
	Token grant(Token.Context context, Set<String> scopes) {
		return switch (this.settings.grant) {
			case CLIENT_CREDENTIALS -> clientCredentials(context, scopes);
			case JWT_BEARER -> jwtBearer(context, scopes);
			case ENTERPRISE_MANAGED -> enterpriseManaged(context, scopes);
			case AUTHORIZATION_CODE -> authorizationCode(context, scopes);
		};
	}

	/**
	 * A token by an RFC 7523 JWT bearer grant whose assertion is the workload's own token
	 * (workload identity federation, {@code io.modelcontextprotocol/auth/wif}), read from its
	 * source at every grant: projected tokens rotate.
	 * @param context the resource and its authorization server
	 * @param scopes the scopes to request
	 * @return the token
	 */
	Token jwtBearer(Token.Context context, Set<String> scopes) {
		McpAssertionSource source = Objects.requireNonNull(this.settings.assertion, "assertion source");
		String step = "the workload token of the jwt-bearer grant";
		String value = Assertions.read(this.settings.upstream, step, source);
		Jwt assertion = Assertions.jwt(this.settings.upstream, step + " from " + source, value, this.settings.clock);
		ClientRegistration registration = this.identity.registration(context, scopes);
		this.tokenRequests.incrementAndGet();
		return token(context, registration, scopes, this.tokens.jwtBearer(registration, assertion), "jwt-bearer");
	}

	/**
	 * A token by enterprise-managed authorization
	 * ({@code io.modelcontextprotocol/enterprise-managed-authorization}): the identity
	 * assertion is exchanged at the identity provider for an identity assertion authorization
	 * grant for this upstream and its authorization server (§4, RFC 8693), which the
	 * authorization server then redeems as a JWT bearer grant (§5, RFC 7523). Both are made
	 * at every grant: an ID-JAG is short-lived and the identity assertion may have changed.
	 * @param context the resource and its authorization server
	 * @param scopes the scopes to request
	 * @return the token
	 */
	Token enterpriseManaged(Token.Context context, Set<String> scopes) {
		OAuthSettings s = this.settings;
		McpAssertionSource source = Objects.requireNonNull(s.assertion, "assertion source");
		McpIdentityProvider idp = Objects.requireNonNull(s.identityProvider, "identity provider");
		String step = "the identity assertion of the enterprise-managed grant";
		String subject = Assertions.read(s.upstream, step, source);
		if (idp.expectsJwt()) {
			Assertions.jwt(s.upstream, step + " from " + source, subject, s.clock);
		}
		URI endpoint = SafeUrls.requireSafe(s.upstream, "the identity provider's token endpoint", idp.tokenEndpoint());
		ClientRegistration atIdentityProvider = ClientRegistration.withRegistrationId(s.upstream + "-identity-provider")
			.clientId(idp.clientId())
			.clientSecret(idp.clientSecret())
			.clientAuthenticationMethod(new ClientAuthenticationMethod(idp.authenticationMethod()))
			.authorizationGrantType(AuthorizationGrantType.TOKEN_EXCHANGE)
			.tokenUri(endpoint.toString())
			.scope(scopes)
			.providerConfigurationMetadata(Map.of("resource", context.resource().resource(), TokenRequests.AUDIENCE,
					context.server().issuer(), TokenRequests.SUBJECT_TOKEN_TYPE, idp.subjectTokenType()))
			.build();
		this.tokenRequests.incrementAndGet();
		OAuth2AccessTokenResponse exchanged = this.tokens.tokenExchange(atIdentityProvider, subject);
		Object issued = exchanged.getAdditionalParameters().get("issued_token_type");
		if (issued == null) {
			// RFC 8693 §2.2.1: REQUIRED; without it the client cannot know what it was given
			throw new McpAuthorizationException(s.upstream, "the token exchange response of the identity provider at "
					+ endpoint + " has no issued_token_type (RFC 8693 §2.2.1); it was not used", null);
		}
		if (!TokenRequests.ID_JAG.equals(issued.toString())) {
			throw new McpAuthorizationException(s.upstream, "the identity provider at " + endpoint
					+ " issued a token of type '" + issued + "', not an identity assertion authorization grant ("
					+ TokenRequests.ID_JAG + "); it was not used", null);
		}
		Jwt grant = Assertions.jwt(s.upstream, "the identity assertion authorization grant from " + endpoint,
				exchanged.getAccessToken().getTokenValue(), s.clock);
		ClientRegistration registration = this.identity.registration(context, scopes);
		this.tokenRequests.incrementAndGet();
		return token(context, registration, scopes, this.tokens.jwtBearer(registration, grant),
				"enterprise-managed authorization (token exchange, then jwt-bearer)");
	}

	/**
	 * A token by client credentials (2026-07-28 basic/authorization §Client Credentials).
	 * @param context the resource and its authorization server
	 * @param scopes the scopes to request
	 * @return the token
	 */
	Token clientCredentials(Token.Context context, Set<String> scopes) {
		ClientRegistration registration = this.identity.registration(context, scopes);
		this.tokenRequests.incrementAndGet();
		return token(context, registration, scopes, this.tokens.clientCredentials(registration), "client credentials");
	}

	/**
	 * A token for the user whose access token is the subject, by token exchange (RFC 8693):
	 * the response must say what it issued ({@code issued_token_type}, RFC 8693 §2.2.1), and
	 * only an access token is sent to the upstream.
	 * @param context the resource and its authorization server
	 * @param scopes the scopes to request
	 * @param subject the user's access token
	 * @return the token
	 */
	Token tokenExchange(Token.Context context, Set<String> scopes, McpSubjectToken subject) {
		ClientRegistration registration = this.identity.registration(context, scopes);
		this.tokenRequests.incrementAndGet();
		OAuth2AccessTokenResponse response = this.tokens.userTokenExchange(registration, subject.value());
		Object issued = response.getAdditionalParameters().get("issued_token_type");
		if (issued == null) {
			throw new McpAuthorizationException(this.settings.upstream, "the token exchange response of "
					+ context.server().issuer() + " has no issued_token_type (RFC 8693 §2.2.1); its token is not used",
					null);
		}
		if (!ACCESS_TOKEN_TYPE.equals(issued.toString())) {
			throw new McpAuthorizationException(this.settings.upstream, "the token exchange at "
					+ context.server().issuer() + " issued a token of type " + issued
					+ ", not an access token; it is not sent to the upstream", null);
		}
		return token(context, registration, scopes, response, "token exchange");
	}

	/**
	 * A token by the refresh token of the previous one, for the same scopes.
	 * @param previous the token to renew
	 * @param refreshToken its refresh token
	 * @return the token, which keeps the refresh token when the server did not rotate it
	 */
	Token refreshGrant(Token previous, String refreshToken) {
		this.tokenRequests.incrementAndGet();
		OAuth2AccessTokenResponse response = this.tokens.refresh(previous.registration,
				new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, previous.value, null, null),
				new OAuth2RefreshToken(refreshToken, null),
				Set.of());
		Token next = token(previous.context, previous.registration, previous.requested, response, "refresh token");
		// 2025-11-25 basic/authorization §Refresh Tokens: the server may rotate it, or not
		return (next.refreshToken == null) ? next.withRefreshToken(refreshToken) : next;
	}

	/**
	 * A token by authorization code with PKCE, the user's step taken by the
	 * {@link McpAuthorizationHandler}.
	 * @param context the resource and its authorization server
	 * @param scopes the scopes to request
	 * @return the token
	 */
	Token authorizationCode(Token.Context context, Set<String> scopes) {
		AuthorizationServer server = context.server();
		OAuthSettings s = this.settings;
		if (!server.supportsS256()) {
			// 2026-07-28 basic/authorization/security-considerations §Authorization Code
			// Protection: no code_challenge_methods_supported with S256, no flow
			throw new McpAuthorizationException(s.upstream, "the authorization server '" + server.issuer()
					+ "' does not advertise PKCE S256 (code_challenge_methods_supported); refusing to proceed", null);
		}
		ClientRegistration registration = this.identity.registration(context, scopes);
		// registration(...) required it for this grant
		URI authorizationEndpoint = Objects.requireNonNull(server.authorizationEndpoint(), "authorization endpoint");
		State state = new State();
		CodeVerifier verifier = new CodeVerifier();
		URI authorizationUri = new AuthorizationRequest.Builder(ResponseType.CODE,
				new ClientID(registration.getClientId()))
			.endpointURI(authorizationEndpoint)
			.redirectionURI(s.redirectUri)
			.scope(scopes.isEmpty() ? null : new Scope(scopes.toArray(String[]::new)))
			.state(state)
			.codeChallenge(verifier, CodeChallengeMethod.S256)
			.resource(URI.create(context.resource().resource()))
			.build()
			.toURI();
		URI callback = s.handler
			.authorize(new McpAuthorizationRequest(s.upstream, authorizationUri, s.redirectUri, state.getValue()));
		String code = validateCallback(server, callback, state);
		OAuth2AuthorizationRequest request = OAuth2AuthorizationRequest.authorizationCode()
			.authorizationUri(authorizationEndpoint.toString())
			.clientId(registration.getClientId())
			.redirectUri(s.redirectUri.toString())
			.scopes(scopes)
			.state(state.getValue())
			.attributes((attributes) -> attributes.put(PkceParameterNames.CODE_VERIFIER, verifier.getValue()))
			.build();
		OAuth2AuthorizationResponse response = OAuth2AuthorizationResponse.success(code)
			.redirectUri(s.redirectUri.toString())
			.state(state.getValue())
			.build();
		this.tokenRequests.incrementAndGet();
		return token(context, registration, scopes,
				this.tokens.authorizationCode(registration, new OAuth2AuthorizationExchange(request, response)),
				"authorization code");
	}

	/**
	 * 2026-07-28 basic/authorization §Authorization Response Validation: {@code iss} compared
	 * by simple string comparison with the recorded issuer before anything else of the
	 * response is used; missing where the server advertised it, refused; then {@code state}.
	 */
	private String validateCallback(AuthorizationServer server, @Nullable URI callback, State state) {
		String upstream = this.settings.upstream;
		if (callback == null) {
			throw new McpAuthorizationException(upstream, "the authorization handler returned no redirect", null);
		}
		AuthorizationResponse response;
		try {
			response = AuthorizationResponse.parse(callback);
		}
		catch (ParseException ex) {
			throw new McpAuthorizationException(upstream,
					"the authorization response is not a valid redirect: " + ex.getMessage(), null);
		}
		String iss = (response.getIssuer() != null) ? response.getIssuer().getValue() : null;
		if (iss != null && !iss.equals(server.issuer())) {
			// on mismatch the client MUST NOT act on or display error, error_description
			throw new McpAuthorizationException(upstream, "the authorization response names issuer '" + iss
					+ "', not the recorded '" + server.issuer() + "'; it was discarded (RFC 9207 §2.4)", null);
		}
		if (iss == null && server.advertisesIssParameter()) {
			throw new McpAuthorizationException(upstream, "the authorization server advertises "
					+ "authorization_response_iss_parameter_supported but its response has no iss; it was discarded "
					+ "(RFC 9207 §2.4)", null);
		}
		if (response.getState() == null || !response.getState().equals(state)) {
			throw new McpAuthorizationException(upstream,
					"the authorization response's state does not match the request's; it was discarded", null);
		}
		if (!response.indicatesSuccess()) {
			var error = response.toErrorResponse().getErrorObject();
			throw new McpAuthorizationException(upstream, "the authorization was refused: " + error.getCode()
					+ ((error.getDescription() != null) ? " (" + error.getDescription() + ")" : ""), null);
		}
		return response.toSuccessResponse().getAuthorizationCode().getValue();
	}

	private Token token(Token.Context context, ClientRegistration registration, Set<String> requested,
			OAuth2AccessTokenResponse response, String grant) {
		OAuth2AccessToken access = response.getAccessToken();
		String refresh = (response.getRefreshToken() != null) ? response.getRefreshToken().getTokenValue() : null;
		Token next = new Token(access.getTokenValue(), refresh, access.getIssuedAt(), access.getExpiresAt(),
				Set.copyOf(requested), context, registration, true);
		if (logger.isInfoEnabled()) {
			logger.info("[" + this.settings.upstream + "] obtained a token from " + context.server().issuer() + " by "
					+ grant + ((requested.isEmpty()) ? "" : " for scopes " + requested)
					+ ((access.getExpiresAt() != null)
							? ", expiring in " + Duration.between(this.settings.clock.instant(), access.getExpiresAt())
								.toSeconds() + " s"
							: "")
					+ ((refresh != null) ? ", with a refresh token" : ""));
		}
		return next;
	}

}
