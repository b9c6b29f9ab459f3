package dev.mcpx.client.event;

/**
 * A legacy response stream broke, and its event ids could not say where to resume it: they
 * repeat, or are the session id (2025-11-25 transports §Resumability and Redelivery, rule 1:
 * event ids are unique across a session's streams). It was not resumed, which would only have
 * waited for a replay that never comes; the request was handled at once as one whose stream
 * had no ids: sent again when the replay gate allows it, else failed as
 * {@code McpStreamLostException}.
 *
 * @param upstream the upstream name
 * @param method the method of the request whose stream broke
 * @param reason why its ids cannot resume it
 */
public record McpStreamNotResumableEvent(String upstream, String method, String reason) implements McpEvent {
}
