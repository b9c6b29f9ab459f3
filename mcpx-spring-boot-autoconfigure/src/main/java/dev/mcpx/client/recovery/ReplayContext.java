package dev.mcpx.client.recovery;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ToolAnnotations;

/**
 * What the replay gate knows when asked whether a request may be sent a second time.
 *
 * @param upstream the upstream name
 * @param method the request's method
 * @param tool the tool of a {@code tools/call}
 * @param cause why the first attempt did not count
 * @param annotations the tool's list-time annotations, empty when unknown or not a tool call
 */
public record ReplayContext(String upstream, String method, @Nullable String tool, ReplayCause cause,
		Optional<ToolAnnotations> annotations) {

	/**
	 * Whether the request is a {@code tools/call}.
	 * @return {@code true} for a tool call
	 */
	public boolean isToolCall() {
		return this.tool != null;
	}

}
