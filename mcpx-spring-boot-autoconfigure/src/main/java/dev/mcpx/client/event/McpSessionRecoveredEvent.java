package dev.mcpx.client.event;

import java.time.Duration;

/**
 * A new session replaced an expired one, or a new server process replaced one that ended.
 *
 * @param upstream the upstream name
 * @param oldGeneration the generation of the expired session
 * @param newGeneration the generation of the new session
 * @param duration how long the new handshake took (for a process: its start and handshake)
 * @param trigger {@link ReplayCause#SESSION_EXPIRED}, or {@link ReplayCause#PROCESS_EXITED}
 * when a server process was restarted
 * @param cause what made the old generation die, as in {@link McpSessionExpiredEvent#cause()}
 */
public record McpSessionRecoveredEvent(String upstream, long oldGeneration, long newGeneration, Duration duration,
		ReplayCause trigger, String cause) implements McpEvent {

	/**
	 * A replaced HTTP session.
	 * @param upstream the upstream name
	 * @param oldGeneration the generation of the expired session
	 * @param newGeneration the generation of the new session
	 * @param duration how long the new handshake took
	 */
	public McpSessionRecoveredEvent(String upstream, long oldGeneration, long newGeneration, Duration duration) {
		this(upstream, oldGeneration, newGeneration, duration, ReplayCause.SESSION_EXPIRED, "the session expired");
	}

}
