package dev.mcpx.client.protocol;

import tools.jackson.databind.JsonNode;

/**
 * One JSON-RPC 2.0 message as MCP uses it.
 */
public sealed interface JsonRpcMessage {

	/**
	 * A request: it has an id and expects a response.
	 * @param id the request id (string or number)
	 * @param method the method
	 * @param params the parameters, or {@code null}
	 */
	record Request(JsonNode id, String method, JsonNode params) implements JsonRpcMessage {
	}

	/**
	 * A notification: no id, no response.
	 * @param method the method
	 * @param params the parameters, or {@code null}
	 */
	record Notification(String method, JsonNode params) implements JsonRpcMessage {
	}

	/**
	 * A response: a result or an error, for the request with the same id.
	 * @param id the id of the request answered, or a JSON null when the server could not
	 * read it
	 * @param result the result, or {@code null} for an error
	 * @param error the error, or {@code null} for a result
	 */
	record Response(JsonNode id, JsonNode result, JsonRpcError error) implements JsonRpcMessage {
	}

}
