package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The response stream of a request ended before its JSON-RPC response arrived (connection
 * reset, end of stream, truncated body, event stream closed early). The request may have
 * executed on the server. Its identity is this type, never its message text.
 */
public class McpStreamLostException extends McpException {

	private final String method;

	/**
	 * Creates an exception for a lost response stream.
	 * @param upstream the upstream name
	 * @param method the method of the request whose response was lost
	 * @param message what happened, and whether the request was re-issued
	 * @param cause the underlying failure
	 */
	public McpStreamLostException(String upstream, String method, String message, @Nullable Throwable cause) {
		super(upstream, message, cause);
		this.method = method;
	}

	/**
	 * The method of the request whose response was lost.
	 * @return the method
	 */
	public String method() {
		return this.method;
	}

}
