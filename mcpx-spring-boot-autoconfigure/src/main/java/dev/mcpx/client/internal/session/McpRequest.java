package dev.mcpx.client.internal.session;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * One request the client API wants answered, before any attempt is made.
 *
 * @param method the MCP method
 * @param params the parameters
 * @param toolName the tool a {@code tools/call} names
 * @param timeout the caller's bound for one attempt
 * @param headers extra HTTP headers the request carries (modern {@code Mcp-Param-*})
 */
public record McpRequest(String method, @Nullable JsonNode params, @Nullable String toolName, Duration timeout,
		Map<String, String> headers) {

	public McpRequest {
		headers = Map.copyOf(headers);
	}

	/**
	 * A request without extra headers.
	 * @param method the MCP method
	 * @param params the parameters
	 * @param toolName the tool a {@code tools/call} names
	 * @param timeout the caller's bound for one attempt
	 */
	public McpRequest(String method, @Nullable JsonNode params, @Nullable String toolName, Duration timeout) {
		this(method, params, toolName, timeout, Map.of());
	}

}
