package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The server answered a request with a JSON-RPC error.
 */
public class McpJsonRpcException extends McpException {

	/** JSON-RPC: the method does not exist or is not available. */
	public static final int METHOD_NOT_FOUND = -32601;

	/** JSON-RPC: invalid method parameters. */
	public static final int INVALID_PARAMS = -32602;

	/** JSON-RPC: an internal error of the one answering. */
	public static final int INTERNAL_ERROR = -32603;

	private final int code;

	private final String errorMessage;

	private final @Nullable JsonNode data;

	/**
	 * Creates an exception for a JSON-RPC error.
	 * @param upstream the upstream name
	 * @param method the method of the failed request
	 * @param code the error code
	 * @param errorMessage the server's error message
	 * @param data the error's {@code data}
	 */
	public McpJsonRpcException(String upstream, String method, int code, String errorMessage, @Nullable JsonNode data) {
		super(upstream, method + " failed with JSON-RPC error " + code + ": " + errorMessage, null);
		this.code = code;
		this.errorMessage = errorMessage;
		this.data = data;
	}

	/**
	 * The JSON-RPC error code.
	 * @return the code
	 */
	public int code() {
		return this.code;
	}

	/**
	 * The server's error message.
	 * @return the message
	 */
	public String errorMessage() {
		return this.errorMessage;
	}

	/**
	 * The error's additional data.
	 * @return the data
	 */
	public @Nullable JsonNode data() {
		return this.data;
	}

}
