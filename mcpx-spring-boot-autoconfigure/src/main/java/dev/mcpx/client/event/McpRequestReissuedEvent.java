package dev.mcpx.client.event;

import org.jspecify.annotations.Nullable;

/**
 * A request whose first attempt did not count is being sent a second time, as a new
 * request with a new id. Published just before the second attempt; if that attempt fails,
 * its failure reaches the caller.
 *
 * @param upstream the upstream name
 * @param method the request's method
 * @param tool the tool of a {@code tools/call}
 * @param cause why the first attempt did not count
 * @param reason why sending it again was judged safe
 */
public record McpRequestReissuedEvent(String upstream, String method, @Nullable String tool, ReplayCause cause, String reason)
		implements McpEvent {
}
