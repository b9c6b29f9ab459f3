package dev.mcpx.client.error;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Root of every failure an {@link dev.mcpx.client.McpClient} reports. Unchecked: callers catch the subtype
 * they can act on. Messages name the upstream and never contain a session id in full or a
 * header value.
 */
public class McpException extends RuntimeException {

	private final String upstream;

	/**
	 * Creates an exception.
	 * @param upstream the upstream name
	 * @param message what went wrong
	 * @param cause the underlying failure
	 */
	public McpException(String upstream, String message, @Nullable Throwable cause) {
		super("[" + upstream + "] " + message, cause);
		this.upstream = upstream;
	}

	/**
	 * The message, which names the upstream.
	 * @return the message, never absent: every constructor sets one
	 */
	@Override
	public String getMessage() {
		return Objects.requireNonNull(super.getMessage());
	}

	/**
	 * The name of the upstream this failure came from.
	 * @return the upstream name
	 */
	public String upstream() {
		return this.upstream;
	}

}
