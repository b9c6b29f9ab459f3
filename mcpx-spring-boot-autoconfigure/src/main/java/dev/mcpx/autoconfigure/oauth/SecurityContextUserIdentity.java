package dev.mcpx.autoconfigure.oauth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.ClaimAccessor;
import org.springframework.security.oauth2.core.OAuth2Token;

import dev.mcpx.client.McpCredentials;
import dev.mcpx.client.McpUserIdentity;
import dev.mcpx.client.oauth.McpSubjectToken;

/**
 * The user of the calling thread, as Spring Security's {@code SecurityContext} holds them: an
 * authenticated, non-anonymous {@link Authentication}. Its key is a hash of the token's
 * issuer and the user's name, so no user name reaches a log; its subject token is the access
 * token a resource server accepted from the user ({@code JwtAuthenticationToken},
 * {@code BearerTokenAuthentication}: their credentials are an {@link OAuth2Token}).
 */
final class SecurityContextUserIdentity implements McpUserIdentity {

	private final UserCredentials credentials;

	/** What users' identifiers in events are hashed with, absent when events name no user. */
	private final byte @Nullable [] eventSalt;

	/**
	 * Creates the identity.
	 * @param credentials makes one user's credentials
	 * @param hashedEventIds whether events name each user by a salted hash
	 */
	SecurityContextUserIdentity(UserCredentials credentials, boolean hashedEventIds) {
		this.credentials = credentials;
		this.eventSalt = hashedEventIds ? salt() : null;
	}

	private static byte[] salt() {
		byte[] salt = new byte[16];
		new SecureRandom().nextBytes(salt);
		return salt;
	}

	@Override
	public @Nullable String currentUser() {
		Authentication user = user();
		return (user != null) ? key(user) : null;
	}

	/**
	 * The user's credentials, which take the user's newest access token from each calling
	 * thread that acts for this same user, and none from any other (a thread that inherited
	 * another user's context, or none).
	 */
	@Override
	public synchronized McpCredentials credentials(String key) {
		Authentication opening = user();
		if (opening == null || !key.equals(key(opening))) {
			throw new IllegalStateException("the credentials of a user are made on that user's thread");
		}
		return this.credentials.of(opening.getName(), () -> {
			Authentication user = user();
			if (user == null || !key.equals(key(user))) {
				return null;
			}
			return (user.getCredentials() instanceof OAuth2Token token)
					? new McpSubjectToken(token.getTokenValue(), token.getExpiresAt()) : null;
		});
	}

	private static @Nullable Authentication user() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (authentication == null || !authentication.isAuthenticated()
				|| authentication instanceof AnonymousAuthenticationToken) {
			return null;
		}
		return authentication;
	}

	/**
	 * A user's identifier in events: a hash of the user's key with a salt drawn when the
	 * application starts, so that a list of names hashed in advance finds no one in the events.
	 */
	@Override
	public @Nullable String eventId(String key) {
		byte[] salt = this.eventSalt;
		return (salt != null) ? sha256(salt, key) : null;
	}

	/** A user's key: the same for the same user of the same issuer, and naming no one. */
	static String key(Authentication user) {
		String issuer = (user.getCredentials() instanceof ClaimAccessor claims) ? claims.getClaimAsString("iss") : null;
		return sha256(new byte[0], ((issuer != null) ? issuer : "").concat("\n").concat(user.getName()));
	}

	private static String sha256(byte[] salt, String text) {
		try {
			MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
			sha256.update(salt);
			byte[] digest = sha256.digest(text.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 12);
		}
		catch (NoSuchAlgorithmException ex) {
			// every Java platform has SHA-256 (java.security.MessageDigest)
			throw new IllegalStateException(ex);
		}
	}

	/** Makes one user's credentials. */
	@FunctionalInterface
	interface UserCredentials {

		/**
		 * The credentials of one user.
		 * @param principalName the user's name, as Spring Security's {@code OAuth2AuthorizedClientService} keys it
		 * @param subjectTokens the user's access token on each calling thread of that user
		 * @return the credentials
		 */
		McpCredentials of(String principalName, Supplier<@Nullable McpSubjectToken> subjectTokens);

	}

}
