package dev.mcpx.client;

/**
 * Root of every failure an {@link McpClient} reports. Unchecked: callers catch the subtype
 * they can act on. Messages name the upstream and never contain a session id in full or a
 * header value.
 */
public class McpException extends RuntimeException {

	private final String upstream;

	/**
	 * Creates an exception.
	 * @param upstream the upstream name
	 * @param message what went wrong
	 * @param cause the underlying failure, or {@code null}
	 */
	public McpException(String upstream, String message, Throwable cause) {
		super("[" + upstream + "] " + message, cause);
		this.upstream = upstream;
	}

	/**
	 * The name of the upstream this failure came from.
	 * @return the upstream name
	 */
	public String upstream() {
		return this.upstream;
	}

}
