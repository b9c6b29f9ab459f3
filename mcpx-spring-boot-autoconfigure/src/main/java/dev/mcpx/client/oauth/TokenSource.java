package dev.mcpx.client.oauth;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.oauth.Discovery.ProtectedResource;

/**
 * Where a new token of one upstream's credentials comes from: discovery of the protected
 * resource and its authorization server from a challenge, the scopes, then the grant the
 * credentials were built for, a refresh, or a token exchange of the user's access token.
 * {@link McpOAuthCredentials} keeps the current token and decides when a new one is needed
 * (one caller at a time); this class makes the requests that obtain it.
 */
final class TokenSource {

	/** The credentials' own logger: one place to turn their story on. */
	private static final Log logger = LogFactory.getLog(McpOAuthCredentials.class);

	private final OAuthSettings settings;

	private final Supplier<@Nullable Token> current;

	private final Discovery discovery;

	private final Grants grants;

	/** The user's access token last seen on a calling thread, for a token exchange. */
	private volatile @Nullable McpSubjectToken subject;

	/**
	 * Creates the source of one upstream's tokens.
	 * @param settings the credentials' settings
	 * @param current the credentials' current token, scrubbed from any message with the
	 * other secrets
	 */
	TokenSource(OAuthSettings settings, Supplier<@Nullable Token> current) {
		this.settings = settings;
		this.current = current;
		this.discovery = new Discovery(settings.upstream, settings.resource, settings.connectTimeout,
				settings.readTimeout);
		Registrar registrar = new Registrar(settings.upstream, settings.connectTimeout, settings.readTimeout);
		TokenRequests tokens = new TokenRequests(settings.upstream, (registration) -> {
			Object resource = registration.getProviderDetails().getConfigurationMetadata().get("resource");
			return (resource != null) ? resource.toString() : settings.resource.toString();
		}, settings.jwk, settings.connectTimeout, settings.readTimeout, this::knownSecrets);
		this.grants = new Grants(settings, new ClientIdentity(settings, registrar), tokens);
	}

	/**
	 * Notes the calling thread's user's access token, when the credentials exchange one: the
	 * user's newest token; the client's own threads (a listen stream, a renewed session) see
	 * none and exchange the last one seen.
	 */
	void noteSubject() {
		Supplier<@Nullable McpSubjectToken> subjectTokens = this.settings.subjectTokens;
		McpSubjectToken seen = (subjectTokens != null) ? subjectTokens.get() : null;
		if (seen != null) {
			this.subject = seen;
		}
	}

	/**
	 * How many token requests were made (every grant, refreshes included).
	 * @return the count
	 */
	int tokenRequests() {
		return this.grants.tokenRequests();
	}

	/**
	 * A token in place of one about to expire, for the same scopes: by its refresh token, else
	 * by the same grant (or exchange) again.
	 * @param expiring the token about to expire
	 * @return the new token
	 */
	Token renew(Token expiring) {
		String refreshToken = expiring.refreshToken;
		if (refreshToken != null) {
			return this.grants.refreshGrant(expiring, refreshToken);
		}
		if (this.settings.subjectTokens != null) {
			return this.grants.tokenExchange(expiring.context, expiring.requested, subject());
		}
		return this.grants.grant(expiring.context, expiring.requested);
	}

	/**
	 * A token that answers a challenge: a refresh of the previous token after a 401 when it
	 * has a refresh token, else the whole flow (discovery, scopes, grant).
	 * @param challenge the upstream's refusal
	 * @param previous the token it refused, or {@code null}
	 * @return the new token
	 */
	Token obtain(McpAuthChallenge challenge, @Nullable Token previous) {
		String refreshToken = (previous != null) ? previous.refreshToken : null;
		if (challenge.status() == 401 && previous != null && refreshToken != null) {
			try {
				return this.grants.refreshGrant(previous, refreshToken);
			}
			catch (McpAuthorizationException ex) {
				logger.debug("[" + this.settings.upstream + "] refreshing the token failed, authorizing again: "
						+ ex.getMessage());
			}
		}
		ProtectedResource resource = this.discovery.protectedResource(challenge);
		String issuer = resource.authorizationServers().get(0);
		AuthorizationServer server = this.discovery.authorizationServer(issuer, !resource.fromMetadata());
		if (previous != null && !previous.context.server().issuer().equals(server.issuer())) {
			logger.info("[" + this.settings.upstream + "] the authorization server changed from "
					+ previous.context.server().issuer() + " to " + server.issuer());
		}
		Token.Context context = new Token.Context(resource, server);
		Set<String> scopes = this.grants.scopes(challenge, context, previous);
		if (this.settings.subjectTokens != null) {
			return this.grants.tokenExchange(context, scopes, subject());
		}
		return this.grants.grant(context, scopes);
	}

	/**
	 * The user's access token to exchange, refused before any request when there is none or
	 * it has expired: the authorization server would refuse it, and the user must sign in
	 * again (RFC 8693 §2.1 {@code subject_token}).
	 */
	private McpSubjectToken subject() {
		McpSubjectToken user = this.subject;
		if (user == null) {
			throw new McpAuthorizationException(this.settings.upstream,
					"token exchange: no access token of the user to exchange", null);
		}
		Instant expiresAt = user.expiresAt();
		if (expiresAt != null && !expiresAt.isAfter(this.settings.clock.instant())) {
			throw new McpAuthorizationException(this.settings.upstream, "token exchange: the user's access token "
					+ "expired at " + expiresAt + "; it is not exchanged, the user must sign in again", null);
		}
		return user;
	}

	/** What a server's error message might echo back: scrubbed before it reaches a message. */
	private List<String> knownSecrets() {
		List<String> secrets = new ArrayList<>();
		McpSubjectToken user = this.subject;
		if (user != null) {
			secrets.add(user.value());
		}
		if (this.settings.clientSecret != null) {
			secrets.add(this.settings.clientSecret);
		}
		McpIdentityProvider idp = this.settings.identityProvider;
		if (idp != null && idp.clientSecret() != null) {
			secrets.add(idp.clientSecret());
		}
		Token token = this.current.get();
		if (token != null) {
			secrets.add(token.value);
			if (token.refreshToken != null) {
				secrets.add(token.refreshToken);
			}
			if (token.registration.getClientSecret() != null && !token.registration.getClientSecret().isEmpty()) {
				secrets.add(token.registration.getClientSecret());
			}
		}
		return secrets;
	}

}
