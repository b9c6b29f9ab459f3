package dev.mcpx.client.internal.session;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * Receives the notifications a server sends on any stream, for example
 * {@code notifications/tools/list_changed}.
 */
@FunctionalInterface
public interface ServerMessageListener {

	/**
	 * Called for each notification, on the thread that read it. Must not block.
	 * @param upstream the upstream name
	 * @param method the notification method
	 * @param params its parameters
	 */
	void onNotification(String upstream, String method, @Nullable JsonNode params);

}
