package dev.mcpx.client.oauth;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

import com.nimbusds.jose.jwk.JWK;
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
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationResponse;
import org.springframework.security.oauth2.core.endpoint.PkceParameterNames;

import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.McpCredentials;
import dev.mcpx.client.oauth.Discovery.ProtectedResource;

/**
 * OAuth 2.1 credentials of one upstream, as the MCP authorization spec defines them
 * (2025-11-25 basic/authorization; 2026-07-28 basic/authorization). The first request goes
 * without a token; its 401 starts the flow: protected resource metadata, authorization
 * server metadata, a client identity (pre-registered, a client ID metadata document, or
 * dynamic registration kept in a {@link McpClientRegistrationStore}), then a token by
 * client credentials or by authorization code with PKCE, {@code resource} on every request.
 * A token about to expire is renewed before it is sent (refresh token or client
 * credentials); a 401 obtains a new one; a 403 {@code insufficient_scope} re-authorizes
 * with the union of the scopes (step-up). However many callers meet an expired or refused
 * token at once, one of them renews it and the others use the result.
 * <p>
 * Tokens, refresh tokens, client secrets and authorization codes never appear in a log
 * line, an exception message or {@link #toString()}.
 */
public final class McpOAuthCredentials implements McpCredentials {

	private static final Log logger = LogFactory.getLog(McpOAuthCredentials.class);

	/** Renew a token this long before it expires at most: a request in flight outlives it. */
	static final Duration MAX_EXPIRY_MARGIN = Duration.ofSeconds(30);

	/** The part of a token's lifetime kept as a margin when that is shorter than the maximum. */
	static final int EXPIRY_MARGIN_FRACTION = 10;

	private static final String OFFLINE_ACCESS = "offline_access";

	private final Settings settings;

	private final Discovery discovery;

	private final Registrar registrar;

	private final TokenRequests tokens;

	private final ReentrantLock lock = new ReentrantLock();

	/** The token this thread last put on a request: its 401 tells whether it is still current. */
	private final ThreadLocal<Token> applied = new ThreadLocal<>();

	private final AtomicInteger tokenRequests = new AtomicInteger();

	private volatile @Nullable Token token;

	private McpOAuthCredentials(Settings settings) {
		this.settings = settings;
		this.discovery = new Discovery(settings.upstream, settings.resource, settings.connectTimeout,
				settings.readTimeout);
		this.registrar = new Registrar(settings.upstream, settings.connectTimeout, settings.readTimeout);
		this.tokens = new TokenRequests(settings.upstream, (registration) -> {
			Object resource = registration.getProviderDetails().getConfigurationMetadata().get("resource");
			return (resource != null) ? resource.toString() : settings.resource.toString();
		}, settings.jwk, settings.connectTimeout, settings.readTimeout, this::knownSecrets);
	}

	/**
	 * Starts the credentials of an upstream.
	 * @param upstream the upstream name
	 * @param endpoint the upstream's MCP endpoint, the resource tokens are obtained for
	 * @return a builder
	 */
	public static Builder builder(String upstream, URI endpoint) {
		return new Builder(upstream, endpoint);
	}

	@Override
	public void apply(HttpHeaders headers) {
		Token current = this.token;
		if (current != null && current.expiresSoon(this.settings.clock) && current.renewable) {
			current = renewBeforeExpiry(current);
		}
		this.applied.set(current);
		if (current != null) {
			// 2025-11-25 basic/authorization §Token Requirements: the Authorization header,
			// on every request, never in the query; only to the resource it was issued for
			headers.setBearerAuth(current.value);
		}
	}

	@Override
	public boolean refresh() {
		return refresh(McpAuthChallenge.of(401, this.settings.resource));
	}

	@Override
	public boolean refresh(McpAuthChallenge challenge) {
		Token sent = this.applied.get();
		this.lock.lock();
		try {
			Token current = this.token;
			if (challenge.status() == 403 && !challenge.isInsufficientScope()) {
				// a refusal that a new token with the same rights cannot change
				return false;
			}
			boolean enough = current != null && current.requested.containsAll(challenge.scopes());
			if (current != null && current != sent && (!challenge.isInsufficientScope() || enough)) {
				// another caller already replaced the token this request carried
				return true;
			}
			if (challenge.isInsufficientScope() && enough) {
				// 2025-11-25 basic/authorization §Step-Up Authorization Flow: the client asked
				// for these scopes and the server still refuses; asking again cannot help
				logger.warn("[" + this.settings.upstream + "] the server refuses the token for lack of scope "
						+ challenge.scopes() + ", which it was authorized with; not re-authorizing");
				return false;
			}
			Token next;
			try {
				next = obtain(challenge, current);
			}
			catch (RuntimeException ex) {
				// the next call starts the flow again
				this.token = null;
				throw ex;
			}
			this.token = next;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * How many token requests these credentials made (every grant, refreshes included).
	 * @return the count
	 */
	public int tokenRequests() {
		return this.tokenRequests.get();
	}

	/** What a server's error message might echo back: scrubbed before it reaches a message. */
	private List<String> knownSecrets() {
		List<String> secrets = new ArrayList<>();
		if (this.settings.clientSecret != null) {
			secrets.add(this.settings.clientSecret);
		}
		Token current = this.token;
		if (current != null) {
			secrets.add(current.value);
			if (current.refreshToken != null) {
				secrets.add(current.refreshToken);
			}
			if (current.registration.getClientSecret() != null && !current.registration.getClientSecret().isEmpty()) {
				secrets.add(current.registration.getClientSecret());
			}
		}
		return secrets;
	}

	private @Nullable Token renewBeforeExpiry(Token expiring) {
		this.lock.lock();
		try {
			if (this.token != expiring) {
				return this.token;
			}
			try {
				String refreshToken = expiring.refreshToken;
				Token next = (refreshToken != null) ? refreshGrant(expiring, refreshToken)
						: clientCredentials(expiring.context, expiring.requested);
				this.token = next;
				return next;
			}
			catch (McpAuthorizationException ex) {
				// send the old token once more: the server's 401 runs the whole flow again
				logger.warn("[" + this.settings.upstream + "] renewing the token before it expires failed: "
						+ ex.getMessage());
				Token kept = expiring.notRenewable();
				this.token = kept;
				return kept;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private Token obtain(McpAuthChallenge challenge, @Nullable Token previous) {
		String refreshToken = (previous != null) ? previous.refreshToken : null;
		if (challenge.status() == 401 && previous != null && refreshToken != null) {
			try {
				return refreshGrant(previous, refreshToken);
			}
			catch (McpAuthorizationException ex) {
				logger.debug("[" + this.settings.upstream + "] refreshing the token failed, authorizing again: "
						+ ex.getMessage());
			}
		}
		ProtectedResource resource = this.discovery.protectedResource(challenge);
		String issuer = resource.authorizationServers().get(0);
		AuthorizationServer server = this.discovery.authorizationServer(issuer, !resource.fromMetadata());
		if (previous != null && !previous.context.server.issuer().equals(server.issuer())) {
			logger.info("[" + this.settings.upstream + "] the authorization server changed from "
					+ previous.context.server.issuer() + " to " + server.issuer());
		}
		Context context = new Context(resource, server);
		Set<String> scopes = scopes(challenge, context, previous);
		return (this.settings.grant == McpOAuthGrant.CLIENT_CREDENTIALS) ? clientCredentials(context, scopes)
				: authorizationCode(context, scopes);
	}

	/**
	 * 2025-11-25 basic/authorization §Scope Selection Strategy: the challenge's scope, else
	 * the resource's {@code scopes_supported}, else none; on a step-up the union with what was
	 * requested before; {@code offline_access} when the server offers it and a user
	 * authorizes (2026-07-28 basic/authorization §Refresh Tokens).
	 */
	private Set<String> scopes(McpAuthChallenge challenge, Context context, @Nullable Token previous) {
		Set<String> scopes = new LinkedHashSet<>();
		if (previous != null && challenge.isInsufficientScope()) {
			scopes.addAll(previous.requested);
		}
		if (!challenge.scopes().isEmpty()) {
			scopes.addAll(challenge.scopes());
		}
		else {
			scopes.addAll(context.resource.scopesSupported());
		}
		scopes.addAll(this.settings.scopes);
		if (this.settings.grant == McpOAuthGrant.AUTHORIZATION_CODE
				&& context.server.scopesSupported().contains(OFFLINE_ACCESS)) {
			scopes.add(OFFLINE_ACCESS);
		}
		return scopes;
	}

	// --- client identity: 2026-07-28 basic/authorization/client-registration ----------

	private ClientRegistration registration(Context context, Set<String> scopes) {
		AuthorizationServer server = context.server;
		Settings s = this.settings;
		String clientId;
		String secret;
		String method;
		if (s.clientId != null) {
			// 1. pre-registered, bound to the authorization server it was registered with
			if (s.issuer != null && !s.issuer.equals(server.issuer())) {
				throw new McpAuthorizationException(s.upstream, "the client is pre-registered with '" + s.issuer
						+ "' but the upstream's authorization server is now '" + server.issuer()
						+ "'; its credentials are not sent to another authorization server", null);
			}
			clientId = s.clientId;
			secret = s.clientSecret;
			method = (s.clientAuthentication != null) ? s.clientAuthentication
					: chooseMethod(server, secret != null, s.jwk != null);
		}
		else if (s.grant == McpOAuthGrant.AUTHORIZATION_CODE && s.clientMetadataUrl != null
				&& server.supportsClientIdMetadataDocuments()) {
			// 2. a client ID metadata document: the URL is the client id, portable across servers
			clientId = s.clientMetadataUrl.toString();
			secret = null;
			method = (s.jwk != null) ? "private_key_jwt" : "none";
		}
		else if (server.registrationEndpoint() != null) {
			// 3. dynamic registration, once per authorization server
			McpRegisteredClient registered = s.store.find(s.upstream, server.issuer()).orElse(null);
			if (registered == null) {
				URI redirect = (s.grant == McpOAuthGrant.AUTHORIZATION_CODE) ? s.redirectUri : null;
				registered = this.registrar.register(server, s.clientName, redirect,
						chooseMethod(server, s.grant == McpOAuthGrant.CLIENT_CREDENTIALS, false));
				s.store.save(s.upstream, registered);
				logger.info("[" + s.upstream + "] registered client " + registered.clientId() + " with "
						+ server.issuer());
			}
			clientId = registered.clientId();
			secret = registered.clientSecret();
			method = registered.tokenEndpointAuthMethod();
		}
		else {
			throw new McpAuthorizationException(s.upstream, "the authorization server '" + server.issuer()
					+ "' offers no way to register a client (no registration_endpoint"
					+ ((s.clientMetadataUrl != null) ? ", no client ID metadata documents" : "")
					+ "); configure a pre-registered client id", null);
		}
		ClientRegistration.Builder builder = ClientRegistration.withRegistrationId(s.upstream)
			.clientId(clientId)
			.clientSecret(secret)
			.clientAuthenticationMethod(new ClientAuthenticationMethod(method))
			.tokenUri(server.tokenEndpoint().toString())
			.issuerUri(server.issuer())
			.providerConfigurationMetadata(Map.of("resource", context.resource.resource()))
			.scope(scopes);
		if (s.grant == McpOAuthGrant.CLIENT_CREDENTIALS) {
			builder.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS);
		}
		else {
			builder.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
				.redirectUri(s.redirectUri.toString())
				.authorizationUri(Objects.requireNonNull(server.authorizationEndpoint(), "authorization endpoint")
					.toString());
		}
		return builder.build();
	}

	private static String chooseMethod(AuthorizationServer server, boolean confidential, boolean hasKey) {
		Set<String> supported = server.tokenEndpointAuthMethods();
		if (hasKey && supported.contains("private_key_jwt")) {
			return "private_key_jwt";
		}
		if (!confidential && supported.contains("none")) {
			return "none";
		}
		if (supported.contains("client_secret_basic")) {
			return "client_secret_basic";
		}
		if (supported.contains("client_secret_post")) {
			return "client_secret_post";
		}
		return supported.contains("none") ? "none" : "client_secret_basic";
	}

	// --- grants ----------------------------------------------------------------------

	private Token clientCredentials(Context context, Set<String> scopes) {
		ClientRegistration registration = registration(context, scopes);
		this.tokenRequests.incrementAndGet();
		return token(context, registration, scopes, this.tokens.clientCredentials(registration), "client credentials");
	}

	private Token refreshGrant(Token previous, String refreshToken) {
		this.tokenRequests.incrementAndGet();
		OAuth2AccessTokenResponse response = this.tokens.refresh(previous.registration,
				new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, previous.value, null, null),
				new org.springframework.security.oauth2.core.OAuth2RefreshToken(refreshToken, null),
				Set.of());
		Token next = token(previous.context, previous.registration, previous.requested, response, "refresh token");
		// 2025-11-25 basic/authorization §Refresh Tokens: the server may rotate it, or not
		return (next.refreshToken == null) ? next.withRefreshToken(refreshToken) : next;
	}

	private Token authorizationCode(Context context, Set<String> scopes) {
		AuthorizationServer server = context.server;
		Settings s = this.settings;
		if (!server.supportsS256()) {
			// 2026-07-28 basic/authorization/security-considerations §Authorization Code
			// Protection: no code_challenge_methods_supported with S256, no flow
			throw new McpAuthorizationException(s.upstream, "the authorization server '" + server.issuer()
					+ "' does not advertise PKCE S256 (code_challenge_methods_supported); refusing to proceed", null);
		}
		ClientRegistration registration = registration(context, scopes);
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
			.resource(URI.create(context.resource.resource()))
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
	private String validateCallback(AuthorizationServer server, URI callback, State state) {
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

	private Token token(Context context, ClientRegistration registration, Set<String> requested,
			OAuth2AccessTokenResponse response, String grant) {
		OAuth2AccessToken access = response.getAccessToken();
		String refresh = (response.getRefreshToken() != null) ? response.getRefreshToken().getTokenValue() : null;
		Token next = new Token(access.getTokenValue(), refresh, access.getIssuedAt(), access.getExpiresAt(),
				Set.copyOf(requested), context, registration, true);
		if (logger.isInfoEnabled()) {
			logger.info("[" + this.settings.upstream + "] obtained a token from " + context.server.issuer() + " by "
					+ grant + ((requested.isEmpty()) ? "" : " for scopes " + requested)
					+ ((access.getExpiresAt() != null)
							? ", expiring in " + Duration.between(this.settings.clock.instant(), access.getExpiresAt())
								.toSeconds() + " s"
							: "")
					+ ((refresh != null) ? ", with a refresh token" : ""));
		}
		return next;
	}

	@Override
	public String toString() {
		Token current = this.token;
		return "McpOAuthCredentials[upstream=" + this.settings.upstream + ", grant=" + this.settings.grant
				+ ", token=" + ((current != null) ? "(set)" : "none") + "]";
	}

	private record Context(ProtectedResource resource, AuthorizationServer server) {
	}

	/** A token and what it was obtained with; its {@code toString()} shows no secret. */
	private static final class Token {

		final String value;

		final @Nullable String refreshToken;

		final Instant issuedAt;

		final Instant expiresAt;

		final Set<String> requested;

		final Context context;

		final ClientRegistration registration;

		final boolean renewable;

		Token(String value, @Nullable String refreshToken, Instant issuedAt, Instant expiresAt, Set<String> requested,
				Context context, ClientRegistration registration, boolean renewable) {
			this.value = value;
			this.refreshToken = refreshToken;
			this.issuedAt = issuedAt;
			this.expiresAt = expiresAt;
			this.requested = requested;
			this.context = context;
			this.registration = registration;
			this.renewable = renewable && (refreshToken != null || registration
				.getAuthorizationGrantType()
				.equals(AuthorizationGrantType.CLIENT_CREDENTIALS));
		}

		boolean expiresSoon(Clock clock) {
			if (this.expiresAt == null) {
				return false;
			}
			Duration margin = MAX_EXPIRY_MARGIN;
			if (this.issuedAt != null) {
				Duration fraction = Duration.between(this.issuedAt, this.expiresAt).dividedBy(EXPIRY_MARGIN_FRACTION);
				if (fraction.compareTo(margin) < 0) {
					margin = fraction;
				}
			}
			return !clock.instant().plus(margin).isBefore(this.expiresAt);
		}

		Token notRenewable() {
			return new Token(this.value, this.refreshToken, this.issuedAt, this.expiresAt, this.requested,
					this.context, this.registration, false);
		}

		Token withRefreshToken(String refresh) {
			return new Token(this.value, refresh, this.issuedAt, this.expiresAt, this.requested, this.context,
					this.registration, true);
		}

		@Override
		public String toString() {
			return "Token[expiresAt=" + this.expiresAt + ", scopes=" + this.requested + "]";
		}

	}

	/** The settings of one upstream's credentials, fixed when they are built. */
	private static final class Settings {

		final String upstream;

		final URI resource;

		McpOAuthGrant grant = McpOAuthGrant.AUTHORIZATION_CODE;

		@Nullable String clientId;

		@Nullable String clientSecret;

		@Nullable String clientAuthentication;

		@Nullable JWK jwk;

		@Nullable String issuer;

		@Nullable URI clientMetadataUrl;

		String clientName = "mcpx";

		URI redirectUri = URI.create("http://127.0.0.1/mcpx/oauth/callback");

		Set<String> scopes = Set.of();

		McpAuthorizationHandler handler = McpAuthorizationHandler.headless();

		McpClientRegistrationStore store = McpClientRegistrationStore.inMemory();

		Duration connectTimeout = Duration.ofSeconds(5);

		Duration readTimeout = Duration.ofSeconds(10);

		Clock clock = Clock.systemUTC();

		Settings(String upstream, URI resource) {
			this.upstream = upstream;
			this.resource = resource;
		}

	}

	/**
	 * Builds {@link McpOAuthCredentials}; each setting is checked when it is set, with an
	 * {@link IllegalArgumentException} that names it.
	 */
	public static final class Builder {

		private final Settings settings;

		private Builder(String upstream, URI endpoint) {
			this.settings = new Settings(Objects.requireNonNull(upstream, "upstream"),
					Objects.requireNonNull(endpoint, "endpoint"));
		}

		/**
		 * How tokens are obtained; {@link McpOAuthGrant#AUTHORIZATION_CODE} by default.
		 * @param grant the grant
		 * @return this builder
		 */
		public Builder grant(McpOAuthGrant grant) {
			this.settings.grant = Objects.requireNonNull(grant, "grant");
			return this;
		}

		/**
		 * A pre-registered client, used before any other way of obtaining a client identity.
		 * @param clientId the client id
		 * @param clientSecret its secret, or {@code null} for a public client or
		 * {@code private_key_jwt}
		 * @return this builder
		 */
		public Builder client(String clientId, @Nullable String clientSecret) {
			this.settings.clientId = clientId;
			this.settings.clientSecret = clientSecret;
			return this;
		}

		/**
		 * The issuer the pre-registered client belongs to; when the upstream's authorization
		 * server is another, the flow fails rather than sending the credentials there.
		 * @param issuer the issuer identifier, or {@code null} to accept the discovered one
		 * @return this builder
		 */
		public Builder issuer(@Nullable String issuer) {
			this.settings.issuer = issuer;
			return this;
		}

		/**
		 * How the client authenticates at the token endpoint: {@code client_secret_basic},
		 * {@code client_secret_post}, {@code none} or {@code private_key_jwt}; by default
		 * the best the authorization server supports for the credentials given.
		 * @param method the method, or {@code null} for the default
		 * @return this builder
		 */
		public Builder clientAuthentication(@Nullable String method) {
			if (method != null && !Set.of("client_secret_basic", "client_secret_post", "none", "private_key_jwt")
				.contains(method)) {
				throw new IllegalArgumentException("client authentication must be client_secret_basic, "
						+ "client_secret_post, none or private_key_jwt, was '" + method + "'");
			}
			this.settings.clientAuthentication = method;
			return this;
		}

		/**
		 * The private key of {@code private_key_jwt} client authentication (RFC 7523).
		 * @param jwk the key, with its private part, or {@code null}
		 * @return this builder
		 */
		public Builder signingKey(@Nullable JWK jwk) {
			if (jwk != null && !jwk.isPrivate()) {
				throw new IllegalArgumentException("the signing key must include its private part");
			}
			this.settings.jwk = jwk;
			return this;
		}

		/**
		 * The URL of the client's ID metadata document, used as its client id where the
		 * authorization server supports them.
		 * @param url an https URL with a path, or {@code null}
		 * @return this builder
		 */
		public Builder clientMetadataUrl(@Nullable URI url) {
			if (url != null && (!"https".equalsIgnoreCase(url.getScheme()) || url.getRawPath() == null
					|| url.getRawPath().isEmpty() || url.getRawPath().equals("/"))) {
				// 2026-07-28 basic/authorization/client-registration §Implementation Requirements
				throw new IllegalArgumentException(
						"the client metadata URL must use https and have a path, was '" + url + "'");
			}
			this.settings.clientMetadataUrl = url;
			return this;
		}

		/**
		 * The client name sent with dynamic registration.
		 * @param name the name
		 * @return this builder
		 */
		public Builder clientName(String name) {
			this.settings.clientName = Objects.requireNonNull(name, "clientName");
			return this;
		}

		/**
		 * Where the authorization server sends the user's browser back.
		 * @param redirectUri https, or http on localhost
		 * @return this builder
		 */
		public Builder redirectUri(URI redirectUri) {
			String problem = SafeUrls.redirectUriProblem("the redirect URI", redirectUri);
			if (problem != null) {
				throw new IllegalArgumentException(problem + ", was '" + redirectUri + "'");
			}
			this.settings.redirectUri = redirectUri;
			return this;
		}

		/**
		 * Scopes requested beyond those the upstream asks for.
		 * @param scopes the scopes
		 * @return this builder
		 */
		public Builder scopes(Set<String> scopes) {
			this.settings.scopes = Set.copyOf(scopes);
			return this;
		}

		/**
		 * The user's step of the authorization code flow; headless by default.
		 * @param handler the handler
		 * @return this builder
		 */
		public Builder authorizationHandler(McpAuthorizationHandler handler) {
			this.settings.handler = Objects.requireNonNull(handler, "authorizationHandler");
			return this;
		}

		/**
		 * Where dynamically registered clients are kept; in memory by default.
		 * @param store the store
		 * @return this builder
		 */
		public Builder registrationStore(McpClientRegistrationStore store) {
			this.settings.store = Objects.requireNonNull(store, "registrationStore");
			return this;
		}

		/**
		 * Bounds of the requests to metadata, registration and token endpoints.
		 * @param connectTimeout the bound of a connection
		 * @param readTimeout the bound of a response
		 * @return this builder
		 */
		public Builder timeouts(Duration connectTimeout, Duration readTimeout) {
			this.settings.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
			this.settings.readTimeout = Objects.requireNonNull(readTimeout, "readTimeout");
			return this;
		}

		/**
		 * The clock tokens expire by.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.settings.clock = Objects.requireNonNull(clock, "clock");
			return this;
		}

		/**
		 * Builds the credentials.
		 * @return the credentials
		 * @throws IllegalArgumentException when the client credentials grant has no client id
		 */
		public McpOAuthCredentials build() {
			if (this.settings.grant == McpOAuthGrant.CLIENT_CREDENTIALS && this.settings.clientId == null) {
				throw new IllegalArgumentException("the client credentials grant needs a client id");
			}
			if ("private_key_jwt".equals(this.settings.clientAuthentication) && this.settings.jwk == null) {
				throw new IllegalArgumentException("private_key_jwt client authentication needs a signing key");
			}
			return new McpOAuthCredentials(this.settings);
		}

	}

}
