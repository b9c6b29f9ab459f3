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

	/**
	 * Executes the request on a given session rather than the current one: a request that
	 * names state of that session (a task of a 2025-11-25 server that binds tasks to their
	 * session). Failures are recovered as for any request; one whose session expired is not
	 * replayed into the new session.
	 * @param request the request
	 * @param on the session to send it on
	 * @return the JSON-RPC result
	 */
	JsonNode execute(McpRequest request, SessionState on);

}
