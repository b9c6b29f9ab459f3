package dev.mcpx.autoconfigure.oauth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;

import dev.mcpx.client.McpCredentials;
import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.oauth.McpAuthorizationException;

/**
 * One user's credentials taken from the user's authorized client: the authorization the user
 * granted once in the browser (authorization code with PKCE), kept in Spring Security's
 * {@code OAuth2AuthorizedClientService}, which is JDBC-backed when the application configures
 * it, so every replica sees the same grants. The client manager renews an expired token with
 * its refresh token. A user who never authorized, or whose grant is gone, gets a typed refusal
 * that says so; no other user's token is ever used.
 */
final class AuthorizedClientCredentials implements McpCredentials {

	private static final Log logger = LogFactory.getLog(AuthorizedClientCredentials.class);

	/** Asks the manager again this long before the token expires: a request in flight outlives it. */
	private static final Duration EXPIRY_MARGIN = Duration.ofSeconds(30);

	private final String upstream;

	private final String registrationId;

	private final String principalName;

	private final OAuth2AuthorizedClientManager manager;

	private final Clock clock;

	private final ReentrantLock lock = new ReentrantLock();

	/** The token this thread last put on a request: its 401 tells whether it is still current. */
	private final ThreadLocal<@Nullable OAuth2AccessToken> applied = new ThreadLocal<>();

	private volatile @Nullable OAuth2AccessToken token;

	AuthorizedClientCredentials(String upstream, String registrationId, String principalName,
			OAuth2AuthorizedClientManager manager, Clock clock) {
		this.upstream = upstream;
		this.registrationId = registrationId;
		this.principalName = principalName;
		this.manager = manager;
		this.clock = clock;
	}

	@Override
	public void apply(HttpHeaders headers) {
		OAuth2AccessToken current = this.token;
		if (current == null || expiresSoon(current)) {
			try {
				current = authorize(current);
			}
			catch (McpAuthorizationException ex) {
				// sent without: the upstream's 401 asks again, and its failure reaches the caller
				logger.debug("[" + this.upstream + "] " + ex.getMessage());
			}
		}
		this.applied.set(current);
		if (current != null) {
			headers.setBearerAuth(current.getTokenValue());
		}
	}

	@Override
	public boolean refresh() {
		return refresh(McpAuthChallenge.of(401, java.net.URI.create("urn:unknown")));
	}

	@Override
	public boolean refresh(McpAuthChallenge challenge) {
		if (challenge.status() != 401) {
			// a scope the user did not grant: only the user can grant more, in the browser
			return false;
		}
		OAuth2AccessToken sent = this.applied.get();
		OAuth2AccessToken current = authorize(sent);
		if (current == null || (sent != null && current.getTokenValue().equals(sent.getTokenValue()))) {
			throw new McpAuthorizationException(this.upstream, "the upstream refused the user's authorized client of "
					+ "registration '" + this.registrationId + "'; the user must authorize again", null);
		}
		return true;
	}

	/** The user's token from the manager, which renews an expired one; one caller at a time. */
	private @Nullable OAuth2AccessToken authorize(@Nullable OAuth2AccessToken seen) {
		this.lock.lock();
		try {
			OAuth2AccessToken current = this.token;
			if (current != null && current != seen && !expiresSoon(current)) {
				// another caller already has a newer one
				return current;
			}
			OAuth2AuthorizedClient client;
			try {
				client = this.manager.authorize(OAuth2AuthorizeRequest.withClientRegistrationId(this.registrationId)
					.principal(this.principalName)
					.build());
			}
			catch (OAuth2AuthorizationException ex) {
				// the error code only: a server's description may echo what was sent
				throw new McpAuthorizationException(this.upstream, "the user's authorized client of registration '"
						+ this.registrationId + "' could not be obtained: " + ex.getError().getErrorCode()
						+ " (the user must authorize in the browser)", null);
			}
			if (client == null) {
				throw new McpAuthorizationException(this.upstream, "the user has no authorized client of registration '"
						+ this.registrationId + "' (the user must authorize in the browser)", null);
			}
			this.token = client.getAccessToken();
			return this.token;
		}
		finally {
			this.lock.unlock();
		}
	}

	private boolean expiresSoon(OAuth2AccessToken token) {
		Instant expiresAt = token.getExpiresAt();
		return expiresAt != null && !this.clock.instant().plus(EXPIRY_MARGIN).isBefore(expiresAt);
	}

	@Override
	public String toString() {
		return "AuthorizedClientCredentials[upstream=" + this.upstream + ", registration=" + this.registrationId
				+ ", token=" + ((this.token != null) ? "(set)" : "none") + "]";
	}

}
