package dev.mcpx.client.event;

/**
 * A legacy response stream broke and was resumed with {@code Last-Event-ID}: the request's
 * response arrived without sending the request again (2025-11-25 transports §Resumability
 * and Redelivery).
 *
 * @param upstream the upstream name
 * @param method the method of the request whose stream was resumed
 * @param attempts how many resumptions it took
 */
public record McpStreamResumedEvent(String upstream, String method, int attempts) implements McpEvent {
}
