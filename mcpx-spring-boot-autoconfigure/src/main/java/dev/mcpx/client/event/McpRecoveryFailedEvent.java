package dev.mcpx.client.event;

/**
 * A recovery was attempted and failed; the next call tries again.
 *
 * @param upstream the upstream name
 * @param method the method of the request that needed recovery
 * @param generation the generation of the session that could not be replaced
 * @param cause the failure's message (never a secret)
 * @param trigger {@link ReplayCause#SESSION_EXPIRED}, or {@link ReplayCause#PROCESS_EXITED}
 * when a server process could not be restarted
 */
public record McpRecoveryFailedEvent(String upstream, String method, long generation, String cause,
		ReplayCause trigger) implements McpEvent {

	/**
	 * A session that could not be replaced.
	 * @param upstream the upstream name
	 * @param method the method of the request that needed recovery
	 * @param generation the generation of the session that could not be replaced
	 * @param cause the failure's message
	 */
	public McpRecoveryFailedEvent(String upstream, String method, long generation, String cause) {
		this(upstream, method, generation, cause, ReplayCause.SESSION_EXPIRED);
	}

}
