package dev.mcpx.client.event;

/**
 * The upstream forgot a session; the client is about to open a new one. Published once per
 * expired generation, however many callers saw the expiry.
 *
 * @param upstream the upstream name
 * @param method the method of the request that found the session gone
 * @param generation the generation of the expired session
 * @param sessionId the expired session id, redacted
 * @param status the HTTP status that signalled the expiry (404, or 400 for servers that
 * answer so)
 */
public record McpSessionExpiredEvent(String upstream, String method, long generation, String sessionId, int status)
		implements McpEvent {
}
