package dev.mcpx.client.internal.protocol;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The {@code error} member of a JSON-RPC response.
 *
 * @param code the error code
 * @param message the error message
 * @param data additional data
 */
public record JsonRpcError(int code, String message, @Nullable JsonNode data) {
}
