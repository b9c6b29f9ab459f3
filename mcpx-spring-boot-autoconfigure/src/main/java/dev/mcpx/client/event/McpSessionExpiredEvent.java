package dev.mcpx.client.event;

/**
 * The upstream forgot a session, or the server process of a stdio upstream ended; the
 * client is about to open a new session (start a new process). Published once per dead
 * generation, however many callers saw it die.
 *
 * @param upstream the upstream name
 * @param method the method of the request that found the session gone
 * @param generation the generation of the expired session
 * @param sessionId the expired session id, redacted ({@code "none"} for a stdio upstream)
 * @param status the HTTP status that signalled the expiry (404, or 400 for servers that
 * answer so); {@code 0} when the server process ended
 * @param trigger {@link ReplayCause#SESSION_EXPIRED}, or {@link ReplayCause#PROCESS_EXITED}
 * for a stdio upstream whose process ended
 * @param cause what signalled it, for example {@code "tools/call was answered HTTP 404"}
 * or {@code "process 4242 was killed by SIGKILL (exit code 137)"}
 */
public record McpSessionExpiredEvent(String upstream, String method, long generation, String sessionId, int status,
		ReplayCause trigger, String cause) implements McpEvent {

	/**
	 * An HTTP session expiry.
	 * @param upstream the upstream name
	 * @param method the method of the request that found the session gone
	 * @param generation the generation of the expired session
	 * @param sessionId the expired session id, redacted
	 * @param status the HTTP status that signalled the expiry
	 */
	public McpSessionExpiredEvent(String upstream, String method, long generation, String sessionId, int status) {
		this(upstream, method, generation, sessionId, status, ReplayCause.SESSION_EXPIRED,
				method + " was answered HTTP " + status);
	}

}
