package dev.mcpx.client.event;

import org.jspecify.annotations.Nullable;

/**
 * A request whose first attempt did not count was not sent again; the caller got an
 * exception.
 *
 * @param upstream the upstream name
 * @param method the request's method
 * @param tool the tool of a {@code tools/call}
 * @param cause why the first attempt did not count
 * @param reason why sending it again was refused
 */
public record McpReissueRefusedEvent(String upstream, String method, @Nullable String tool, ReplayCause cause, String reason)
		implements McpEvent {
}
