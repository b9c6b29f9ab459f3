package dev.mcpx.client.error;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A request did not complete within its timeout. The client has told the server with
 * {@code notifications/cancelled} (except for {@code initialize}, which must not be
 * cancelled).
 */
public class McpTimeoutException extends McpException {

	private final Duration timeout;

	/**
	 * Creates an exception for a timed-out request.
	 * @param upstream the upstream name
	 * @param method the method of the request
	 * @param timeout the timeout that elapsed
	 */
	public McpTimeoutException(String upstream, String method, Duration timeout) {
		super(upstream, method + " timed out after " + timeout.toMillis() + " ms", null);
		this.timeout = timeout;
	}

	/**
	 * Creates an exception for a bound that elapsed, saying what it bounded.
	 * @param upstream the upstream name
	 * @param method the method of the request
	 * @param timeout the bound that elapsed
	 * @param message what timed out and what the client did about it
	 * @param cause the last failure on the way, absent when there was none
	 */
	public McpTimeoutException(String upstream, String method, Duration timeout, String message,
			@Nullable Throwable cause) {
		super(upstream, message, cause);
		this.timeout = timeout;
	}

	/**
	 * The timeout that elapsed.
	 * @return the timeout
	 */
	public Duration timeout() {
		return this.timeout;
	}

}
