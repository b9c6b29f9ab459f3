package dev.mcpx.client.internal.transport;

import dev.mcpx.client.error.McpException;

/**
 * The upstream no longer knows the session a request was sent on, and did not act on it:
 * legacy Streamable HTTP answers a request that carried an {@code MCP-Session-Id} with 404
 * (2025-11-25 basic/transports §Session Management, rule 3), or, with the compatibility on,
 * a 400 whose JSON-RPC error names the session; a stdio transport reports a process that
 * exited before the request was written. Internal: the recovery layer renews the session;
 * a caller sees the {@linkplain #evidence() evidence} inside an
 * {@code McpSessionExpiredException}.
 */
public final class SessionGoneException extends McpException {

	private final int status;

	private final McpException evidence;

	/**
	 * Creates the signal.
	 * @param upstream the upstream name
	 * @param method the request's method
	 * @param status the HTTP status that showed it (404 or 400), or {@code 0} for a channel
	 * that closed
	 * @param evidence what the upstream answered, as the caller would have seen it
	 */
	public SessionGoneException(String upstream, String method, int status, McpException evidence) {
		super(upstream, method + " found its session gone", evidence);
		this.status = status;
		this.evidence = evidence;
	}

	/**
	 * The status that showed the session gone.
	 * @return the HTTP status, or {@code 0} for a channel that closed
	 */
	public int status() {
		return this.status;
	}

	/**
	 * What the upstream answered, as the caller would have seen it without recovery.
	 * @return the failure
	 */
	public McpException evidence() {
		return this.evidence;
	}

}
