package dev.mcpx.client.oauth;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * A user's own access token, the subject of a token exchange (RFC 8693 §2.1
 * {@code subject_token}): the token the application's resource server accepted from the
 * user, exchanged for one whose audience is the upstream. Its {@code toString()} never shows
 * the token.
 *
 * @param value the token
 * @param expiresAt when it expires, {@code null} when unknown
 */
public record McpSubjectToken(String value, @Nullable Instant expiresAt) {

	public McpSubjectToken {
		Objects.requireNonNull(value, "value");
	}

	@Override
	public String toString() {
		return "McpSubjectToken[value=(set), expiresAt=" + this.expiresAt + "]";
	}

}
