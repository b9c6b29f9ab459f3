package dev.mcpx.client.error;

/**
 * The HTTP exchange failed before a response arrived: the upstream could not be reached,
 * or the connection failed while the request was being sent.
 */
public class McpTransportException extends McpException {

	/**
	 * Creates an exception for an I/O failure.
	 * @param upstream the upstream name
	 * @param message what failed
	 * @param cause the I/O failure
	 */
	public McpTransportException(String upstream, String message, Throwable cause) {
		super(upstream, message, cause);
	}

}
