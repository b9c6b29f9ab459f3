package dev.mcpx.client.recovery;

import tools.jackson.databind.JsonNode;

/**
 * The single choke point every request of a client passes through on its way to the
 * session; the place where recovery wraps the attempt.
 */
@FunctionalInterface
public interface RequestExecutor {

	/**
	 * Executes the request and returns its result.
	 * @param request the request
	 * @return the JSON-RPC result
	 */
	JsonNode execute(McpRequest request);

}
