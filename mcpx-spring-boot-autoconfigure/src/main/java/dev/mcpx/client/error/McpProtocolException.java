package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The server broke the protocol: a malformed or oversized body, an unexpected content
 * type, an unsupported protocol revision, a response that does not match the request.
 */
public class McpProtocolException extends McpException {

	/**
	 * Creates an exception for a protocol violation.
	 * @param upstream the upstream name
	 * @param message what the server did wrong
	 * @param cause the underlying failure
	 */
	public McpProtocolException(String upstream, String message, @Nullable Throwable cause) {
		super(upstream, message, cause);
	}

}
