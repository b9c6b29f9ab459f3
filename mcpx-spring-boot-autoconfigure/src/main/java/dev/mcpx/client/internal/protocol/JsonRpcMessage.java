package dev.mcpx.client.internal.protocol;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * One JSON-RPC 2.0 message as MCP uses it.
 */
public sealed interface JsonRpcMessage {

	/**
	 * A request: it has an id and expects a response.
	 * @param id the request id (string or number)
	 * @param method the method
	 * @param params the parameters
	 */
	record Request(JsonNode id, String method, @Nullable JsonNode params) implements JsonRpcMessage {
	}

	/**
	 * A notification: no id, no response.
	 * @param method the method
	 * @param params the parameters
	 */
	record Notification(String method, @Nullable JsonNode params) implements JsonRpcMessage {
	}

	/**
	 * A response: a result or an error, for the request with the same id.
	 * @param id the id of the request answered, or a JSON null when the server could not
	 * read it
	 * @param result the result, absent for an error
	 * @param error the error, absent for a result
	 */
	record Response(JsonNode id, @Nullable JsonNode result, @Nullable JsonRpcError error) implements JsonRpcMessage {
	}

}
