package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The upstream refused the client's credentials (HTTP 401 or 403) and they could not be
 * refreshed. Header values are never part of the message; the parsed challenge, which
 * holds no secret, is kept.
 */
public class McpAuthenticationException extends McpHttpStatusException {

	private final @Nullable McpAuthChallenge challenge;

	/**
	 * Creates an exception for refused credentials.
	 * @param upstream the upstream name
	 * @param method the method of the refused request
	 * @param status the HTTP status, 401 or 403
	 * @param cause the refusal
	 */
	public McpAuthenticationException(String upstream, String method, int status, @Nullable Throwable cause) {
		this(upstream, method, status, null, cause);
	}

	/**
	 * Creates an exception for refused credentials with the server's challenge.
	 * @param upstream the upstream name
	 * @param method the method of the refused request
	 * @param status the HTTP status, 401 or 403
	 * @param challenge what the server's {@code WWW-Authenticate} said, or {@code null}
	 * @param cause the refusal, or {@code null}
	 */
	public McpAuthenticationException(String upstream, String method, int status,
			@Nullable McpAuthChallenge challenge, @Nullable Throwable cause) {
		super(upstream, method, status, null, null, null, cause);
		this.challenge = challenge;
	}

	/**
	 * Creates an exception for credentials that could not be applied at all.
	 * @param upstream the upstream name
	 * @param status the HTTP status such a request meets, 401 or 403
	 * @param message what went wrong
	 */
	protected McpAuthenticationException(String upstream, int status, String message) {
		super(upstream, status, message, null);
		this.challenge = null;
	}

	/**
	 * What the server's {@code WWW-Authenticate} said about the refusal.
	 * @return the challenge, or {@code null} when it is not known
	 */
	public @Nullable McpAuthChallenge challenge() {
		return this.challenge;
	}

}
