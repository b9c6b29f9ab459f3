package dev.mcpx.client.event;

import java.time.Duration;

/**
 * A new session replaced an expired one.
 *
 * @param upstream the upstream name
 * @param oldGeneration the generation of the expired session
 * @param newGeneration the generation of the new session
 * @param duration how long the new handshake took
 */
public record McpSessionRecoveredEvent(String upstream, long oldGeneration, long newGeneration, Duration duration)
		implements McpEvent {
}
