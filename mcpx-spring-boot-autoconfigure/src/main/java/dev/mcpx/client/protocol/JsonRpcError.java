package dev.mcpx.client.protocol;

import tools.jackson.databind.JsonNode;

/**
 * The {@code error} member of a JSON-RPC response.
 *
 * @param code the error code
 * @param message the error message
 * @param data additional data, or {@code null}
 */
public record JsonRpcError(int code, String message, JsonNode data) {
}
