package dev.mcpx.client.event;

/**
 * A recovery was attempted and failed; the next call tries again.
 *
 * @param upstream the upstream name
 * @param method the method of the request that needed recovery
 * @param generation the generation of the session that could not be replaced
 * @param cause the failure's message (never a secret)
 */
public record McpRecoveryFailedEvent(String upstream, String method, long generation, String cause)
		implements McpEvent {
}
