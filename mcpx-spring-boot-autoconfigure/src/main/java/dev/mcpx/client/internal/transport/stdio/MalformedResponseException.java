package dev.mcpx.client.internal.transport.stdio;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

/**
 * A line that answers a pending request by its id but is no valid JSON-RPC response (an
 * {@code error} that is not an object with an integer {@code code}, a missing
 * {@code jsonrpc}, both or neither of {@code result} and {@code error}). The server
 * answered, badly: the request fails at once rather than waiting for its timeout, so that a
 * legacy server refusing {@code server/discover} with an error of any shape is recognized
 * (2026-07-28 basic/transports/stdio §Backward Compatibility).
 */
final class MalformedResponseException extends IOException {

	MalformedResponseException(@Nullable String problem) {
		super(problem);
	}

}
