package dev.mcpx.client.event;

/**
 * A request was sent a second time, as a new request with a new id.
 *
 * @param upstream the upstream name
 * @param method the request's method
 * @param tool the tool of a {@code tools/call}, else {@code null}
 * @param cause why the first attempt did not count
 * @param reason why sending it again was judged safe
 */
public record McpRequestReissuedEvent(String upstream, String method, String tool, ReplayCause cause, String reason)
		implements McpEvent {
}
