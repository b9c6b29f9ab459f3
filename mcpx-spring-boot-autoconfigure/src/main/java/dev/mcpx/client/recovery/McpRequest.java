package dev.mcpx.client.recovery;

import java.time.Duration;

import tools.jackson.databind.JsonNode;

/**
 * One request the client API wants answered, before any attempt is made.
 *
 * @param method the MCP method
 * @param params the parameters, or {@code null}
 * @param toolName the tool a {@code tools/call} names, else {@code null}
 * @param timeout the caller's bound for one attempt
 */
public record McpRequest(String method, JsonNode params, String toolName, Duration timeout) {
}
