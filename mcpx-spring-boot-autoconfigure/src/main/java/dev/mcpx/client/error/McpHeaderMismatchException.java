package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The server found the request's HTTP headers and its body disagreeing (JSON-RPC error
 * -32020, {@code HeaderMismatch}; 2026-07-28 transports/streamable-http §Server Validation).
 */
public class McpHeaderMismatchException extends McpJsonRpcException {

	/** The JSON-RPC code of a header mismatch. */
	public static final int CODE = -32020;

	/**
	 * Creates an exception for a header mismatch.
	 * @param upstream the upstream name
	 * @param method the method of the rejected request
	 * @param errorMessage the server's message
	 * @param data the error's data
	 */
	public McpHeaderMismatchException(String upstream, String method, String errorMessage, @Nullable JsonNode data) {
		super(upstream, method, CODE, errorMessage, data);
	}

}
