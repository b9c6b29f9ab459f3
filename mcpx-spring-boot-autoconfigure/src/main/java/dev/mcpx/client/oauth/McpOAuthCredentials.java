package dev.mcpx.client.oauth;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import com.nimbusds.jose.jwk.JWK;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.McpCredentials;

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

	private final OAuthSettings settings;

	/** Where a new token comes from; this class keeps the current one. */
	private final TokenSource source;

	private final ReentrantLock lock = new ReentrantLock();

	/** The token this thread last put on a request: its 401 tells whether it is still current. */
	private final ThreadLocal<Token> applied = new ThreadLocal<>();

	private volatile @Nullable Token token;

	private McpOAuthCredentials(OAuthSettings settings) {
		this.settings = settings;
		this.source = new TokenSource(settings, () -> this.token);
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
		this.source.noteSubject();
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
				next = this.source.obtain(challenge, current);
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
		return this.source.tokenRequests();
	}

	private @Nullable Token renewBeforeExpiry(Token expiring) {
		this.lock.lock();
		try {
			if (this.token != expiring) {
				return this.token;
			}
			try {
				Token next = this.source.renew(expiring);
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

	@Override
	public String toString() {
		Token current = this.token;
		return "McpOAuthCredentials[upstream=" + this.settings.upstream + ", grant=" + this.settings.grant
				+ ", token=" + ((current != null) ? "(set)" : "none") + "]";
	}

	/**
	 * Builds {@link McpOAuthCredentials}; each setting is checked when it is set, with an
	 * {@link IllegalArgumentException} that names it.
	 */
	public static final class Builder {

		private final OAuthSettings settings;

		private Builder(String upstream, URI endpoint) {
			this.settings = new OAuthSettings(Objects.requireNonNull(upstream, "upstream"),
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
		 * Where the assertion of a {@link McpOAuthGrant#JWT_BEARER} grant (the workload's
		 * token) or of a {@link McpOAuthGrant#ENTERPRISE_MANAGED} grant (the user's identity
		 * assertion) comes from; asked at every grant.
		 * @param source the source, for example {@link McpAssertionSource#file}
		 * @return this builder
		 */
		public Builder assertion(McpAssertionSource source) {
			this.settings.assertion = Objects.requireNonNull(source, "assertion");
			return this;
		}

		/**
		 * The enterprise identity provider of a {@link McpOAuthGrant#ENTERPRISE_MANAGED}
		 * grant, where the identity assertion is exchanged.
		 * @param identityProvider the identity provider
		 * @return this builder
		 */
		public Builder identityProvider(McpIdentityProvider identityProvider) {
			this.settings.identityProvider = Objects.requireNonNull(identityProvider, "identityProvider");
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
		 * Obtains tokens for a user by token exchange (RFC 8693) of the user's own access
		 * token, in place of the grant: each credentials act for one user. The supplier is
		 * asked on the thread of every request and answers with that thread's user's current
		 * token, or {@code null} on a thread that acts for no one (or for another user), where
		 * the last token seen is used. Needs a pre-registered client id: the application's own
		 * client at the authorization server.
		 * @param subjectTokens the calling thread's user's access token
		 * @return this builder
		 */
		public Builder tokenExchange(Supplier<@Nullable McpSubjectToken> subjectTokens) {
			this.settings.subjectTokens = Objects.requireNonNull(subjectTokens, "subjectTokens");
			return this;
		}

		/**
		 * Builds the credentials.
		 * @return the credentials
		 * @throws IllegalArgumentException when the client credentials or enterprise-managed
		 * grant or a token exchange has no client id, or a grant presenting an assertion has no
		 * source of it or no identity provider to exchange it at
		 */
		public McpOAuthCredentials build() {
			OAuthSettings s = this.settings;
			if (s.subjectTokens != null && s.clientId == null) {
				throw new IllegalArgumentException("a token exchange needs a pre-registered client id");
			}
			if (s.grant == McpOAuthGrant.CLIENT_CREDENTIALS && s.clientId == null) {
				throw new IllegalArgumentException("the client credentials grant needs a client id");
			}
			if ((s.grant == McpOAuthGrant.JWT_BEARER || s.grant == McpOAuthGrant.ENTERPRISE_MANAGED)
					&& s.assertion == null) {
				throw new IllegalArgumentException("the " + s.grant + " grant needs an assertion source");
			}
			if (s.grant == McpOAuthGrant.ENTERPRISE_MANAGED && s.identityProvider == null) {
				throw new IllegalArgumentException("the ENTERPRISE_MANAGED grant needs an identity provider");
			}
			if (s.grant == McpOAuthGrant.ENTERPRISE_MANAGED && s.clientId == null) {
				// enterprise-managed authorization §6.1: the client is pre-registered with the
				// authorization server, and the identity provider names that client in the ID-JAG
				throw new IllegalArgumentException(
						"the ENTERPRISE_MANAGED grant needs the client id registered with the upstream's authorization server");
			}
			if ("private_key_jwt".equals(this.settings.clientAuthentication) && this.settings.jwk == null) {
				throw new IllegalArgumentException("private_key_jwt client authentication needs a signing key");
			}
			return new McpOAuthCredentials(this.settings.copy());
		}

	}

}
