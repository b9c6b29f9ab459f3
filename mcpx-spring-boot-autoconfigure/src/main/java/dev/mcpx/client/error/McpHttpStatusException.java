package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The server answered with an HTTP status the protocol does not expect. The message holds
 * the status and, when the body was a JSON-RPC error, its code and message; never a
 * header value.
 */
public class McpHttpStatusException extends McpException {

	private final int status;

	private final @Nullable Integer jsonRpcCode;

	private final @Nullable String jsonRpcMessage;

	private final @Nullable JsonNode jsonRpcData;

	/**
	 * Creates an exception for an unexpected HTTP status.
	 * @param upstream the upstream name
	 * @param method the method of the failed request
	 * @param status the HTTP status code
	 * @param jsonRpcCode the JSON-RPC error code found in the body
	 * @param jsonRpcMessage the JSON-RPC error message found in the body
	 */
	public McpHttpStatusException(String upstream, String method, int status, @Nullable Integer jsonRpcCode,
			@Nullable String jsonRpcMessage) {
		this(upstream, method, status, jsonRpcCode, jsonRpcMessage, (JsonNode) null);
	}

	/**
	 * Creates an exception for an unexpected HTTP status whose body held a JSON-RPC error.
	 * @param upstream the upstream name
	 * @param method the method of the failed request
	 * @param status the HTTP status code
	 * @param jsonRpcCode the JSON-RPC error code found in the body
	 * @param jsonRpcMessage the JSON-RPC error message found in the body
	 * @param jsonRpcData the JSON-RPC error's data
	 */
	public McpHttpStatusException(String upstream, String method, int status, @Nullable Integer jsonRpcCode,
			@Nullable String jsonRpcMessage, @Nullable JsonNode jsonRpcData) {
		this(upstream, method, status, jsonRpcCode, jsonRpcMessage, jsonRpcData, null);
	}

	/**
	 * Creates an exception for an unexpected HTTP status with a cause.
	 * @param upstream the upstream name
	 * @param method the method of the failed request
	 * @param status the HTTP status code
	 * @param jsonRpcCode the JSON-RPC error code found in the body
	 * @param jsonRpcMessage the JSON-RPC error message found in the body
	 * @param jsonRpcData the JSON-RPC error's data
	 * @param cause an earlier failure
	 */
	protected McpHttpStatusException(String upstream, String method, int status, @Nullable Integer jsonRpcCode,
			@Nullable String jsonRpcMessage, @Nullable JsonNode jsonRpcData, @Nullable Throwable cause) {
		super(upstream, method + " failed with HTTP " + status
				+ ((jsonRpcCode != null) ? " (JSON-RPC error " + jsonRpcCode + ": " + jsonRpcMessage + ")" : ""),
				cause);
		this.status = status;
		this.jsonRpcCode = jsonRpcCode;
		this.jsonRpcMessage = jsonRpcMessage;
		this.jsonRpcData = jsonRpcData;
	}

	/**
	 * Creates an exception whose message says more than a status can, without a JSON-RPC
	 * error.
	 * @param upstream the upstream name
	 * @param status the HTTP status code
	 * @param message what went wrong
	 * @param cause an earlier failure
	 */
	protected McpHttpStatusException(String upstream, int status, String message, @Nullable Throwable cause) {
		super(upstream, message, cause);
		this.status = status;
		this.jsonRpcCode = null;
		this.jsonRpcMessage = null;
		this.jsonRpcData = null;
	}

	/**
	 * The HTTP status code.
	 * @return the status
	 */
	public int status() {
		return this.status;
	}

	/**
	 * The JSON-RPC error code carried in the body, if any.
	 * @return the code
	 */
	public @Nullable Integer jsonRpcCode() {
		return this.jsonRpcCode;
	}

	/**
	 * The JSON-RPC error message carried in the body, if any.
	 * @return the message
	 */
	public @Nullable String jsonRpcMessage() {
		return this.jsonRpcMessage;
	}

	/**
	 * The data of the JSON-RPC error carried in the body, if any.
	 * @return the data
	 */
	public @Nullable JsonNode jsonRpcData() {
		return this.jsonRpcData;
	}

}
