package dev.mcpx.client;

import tools.jackson.databind.JsonNode;

/**
 * The server answered with an HTTP status the protocol does not expect. The message holds
 * the status and, when the body was a JSON-RPC error, its code and message; never a
 * header value.
 */
public class McpHttpStatusException extends McpException {

	private final int status;

	private final Integer jsonRpcCode;

	private final String jsonRpcMessage;

	private final JsonNode jsonRpcData;

	/**
	 * Creates an exception for an unexpected HTTP status.
	 * @param upstream the upstream name
	 * @param method the method of the failed request
	 * @param status the HTTP status code
	 * @param jsonRpcCode the JSON-RPC error code found in the body, or {@code null}
	 * @param jsonRpcMessage the JSON-RPC error message found in the body, or {@code null}
	 */
	public McpHttpStatusException(String upstream, String method, int status, Integer jsonRpcCode,
			String jsonRpcMessage) {
		this(upstream, method, status, jsonRpcCode, jsonRpcMessage, (JsonNode) null);
	}

	/**
	 * Creates an exception for an unexpected HTTP status whose body held a JSON-RPC error.
	 * @param upstream the upstream name
	 * @param method the method of the failed request
	 * @param status the HTTP status code
	 * @param jsonRpcCode the JSON-RPC error code found in the body, or {@code null}
	 * @param jsonRpcMessage the JSON-RPC error message found in the body, or {@code null}
	 * @param jsonRpcData the JSON-RPC error's data, or {@code null}
	 */
	public McpHttpStatusException(String upstream, String method, int status, Integer jsonRpcCode,
			String jsonRpcMessage, JsonNode jsonRpcData) {
		this(upstream, method, status, jsonRpcCode, jsonRpcMessage, jsonRpcData, null);
	}

	/**
	 * Creates an exception for an unexpected HTTP status with a cause.
	 * @param upstream the upstream name
	 * @param method the method of the failed request
	 * @param status the HTTP status code
	 * @param jsonRpcCode the JSON-RPC error code found in the body, or {@code null}
	 * @param jsonRpcMessage the JSON-RPC error message found in the body, or {@code null}
	 * @param jsonRpcData the JSON-RPC error's data, or {@code null}
	 * @param cause an earlier failure, or {@code null}
	 */
	protected McpHttpStatusException(String upstream, String method, int status, Integer jsonRpcCode,
			String jsonRpcMessage, JsonNode jsonRpcData, Throwable cause) {
		super(upstream, method + " failed with HTTP " + status
				+ ((jsonRpcCode != null) ? " (JSON-RPC error " + jsonRpcCode + ": " + jsonRpcMessage + ")" : ""),
				cause);
		this.status = status;
		this.jsonRpcCode = jsonRpcCode;
		this.jsonRpcMessage = jsonRpcMessage;
		this.jsonRpcData = jsonRpcData;
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
	 * @return the code, or {@code null}
	 */
	public Integer jsonRpcCode() {
		return this.jsonRpcCode;
	}

	/**
	 * The JSON-RPC error message carried in the body, if any.
	 * @return the message, or {@code null}
	 */
	public String jsonRpcMessage() {
		return this.jsonRpcMessage;
	}

	/**
	 * The data of the JSON-RPC error carried in the body, if any.
	 * @return the data, or {@code null}
	 */
	public JsonNode jsonRpcData() {
		return this.jsonRpcData;
	}

}
