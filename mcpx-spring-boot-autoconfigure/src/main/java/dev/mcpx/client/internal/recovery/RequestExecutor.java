package dev.mcpx.client.internal.recovery;

import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import tools.jackson.databind.JsonNode;

/**
 * The single choke point every request of a client passes through on its way to the
 * session; the place where recovery wraps the attempt.
 */
public interface RequestExecutor {

	/**
	 * Opens the session if it is not open yet, as the first request would.
	 * @return the current session
	 */
	SessionState connect();

	/**
	 * Executes the request and returns its result.
	 * @param request the request
	 * @return the JSON-RPC result
	 */
	JsonNode execute(McpRequest request);

}
