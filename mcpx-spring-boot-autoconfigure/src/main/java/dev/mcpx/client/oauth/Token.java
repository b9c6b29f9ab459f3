package dev.mcpx.client.oauth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

import dev.mcpx.client.oauth.Discovery.ProtectedResource;

/** A token and what it was obtained with; its {@code toString()} shows no secret. */
final class Token {

	/** Renew a token this long before it expires at most: a request in flight outlives it. */
	static final Duration MAX_EXPIRY_MARGIN = Duration.ofSeconds(30);

	/** The part of a token's lifetime kept as a margin when that is shorter than the maximum. */
	static final int EXPIRY_MARGIN_FRACTION = 10;

	final String value;

	final @Nullable String refreshToken;

	final @Nullable Instant issuedAt;

	final @Nullable Instant expiresAt;

	final Set<String> requested;

	final Context context;

	final ClientRegistration registration;

	final boolean renewable;

	Token(String value, @Nullable String refreshToken, @Nullable Instant issuedAt, @Nullable Instant expiresAt,
			Set<String> requested, Context context, ClientRegistration registration, boolean renewable) {
		this.value = value;
		this.refreshToken = refreshToken;
		this.issuedAt = issuedAt;
		this.expiresAt = expiresAt;
		this.requested = requested;
		this.context = context;
		this.registration = registration;
		// a grant the client can make again on its own: client credentials, or an assertion
		// it reads again (jwt-bearer, enterprise-managed), a user's token it exchanges again
		AuthorizationGrantType grant = registration.getAuthorizationGrantType();
		this.renewable = renewable && (refreshToken != null || grant.equals(AuthorizationGrantType.CLIENT_CREDENTIALS)
				|| grant.equals(AuthorizationGrantType.JWT_BEARER) || grant.equals(AuthorizationGrantType.TOKEN_EXCHANGE));
	}

	boolean expiresSoon(Clock clock) {
		Instant expires = this.expiresAt;
		if (expires == null) {
			return false;
		}
		Duration margin = MAX_EXPIRY_MARGIN;
		if (this.issuedAt != null) {
			Duration fraction = Duration.between(this.issuedAt, expires).dividedBy(EXPIRY_MARGIN_FRACTION);
			if (fraction.compareTo(margin) < 0) {
				margin = fraction;
			}
		}
		return !clock.instant().plus(margin).isBefore(expires);
	}

	Token notRenewable() {
		return new Token(this.value, this.refreshToken, this.issuedAt, this.expiresAt, this.requested,
				this.context, this.registration, false);
	}

	Token withRefreshToken(@Nullable String refresh) {
		return new Token(this.value, refresh, this.issuedAt, this.expiresAt, this.requested, this.context,
				this.registration, true);
	}

	@Override
	public String toString() {
		return "Token[expiresAt=" + this.expiresAt + ", scopes=" + this.requested + "]";
	}

	/**
	 * Where a token comes from: the protected resource and its authorization server.
	 *
	 * @param resource the resource's metadata
	 * @param server the authorization server's metadata
	 */
	record Context(ProtectedResource resource, AuthorizationServer server) {
	}

}
