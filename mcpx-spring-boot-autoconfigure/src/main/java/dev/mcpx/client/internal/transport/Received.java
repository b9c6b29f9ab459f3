package dev.mcpx.client.internal.transport;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.protocol.JsonRpcMessage;

/**
 * The response to a request, with what the transport learned while receiving it.
 *
 * @param response the JSON-RPC response (a result or an error)
 * @param sessionId the session id the upstream assigned with it (the {@code MCP-Session-Id}
 * of an {@code initialize} response)
 */
public record Received(JsonRpcMessage.Response response, @Nullable String sessionId) {
}
