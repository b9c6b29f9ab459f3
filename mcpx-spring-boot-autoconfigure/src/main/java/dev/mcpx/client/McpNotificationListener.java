package dev.mcpx.client;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * Receives the notifications an upstream sends on any stream, for example
 * {@code notifications/tools/list_changed} or {@code notifications/message}.
 *
 * @see McpClientBuilder#notificationListener(McpNotificationListener)
 */
@FunctionalInterface
public interface McpNotificationListener {

	/**
	 * Called for each notification, on the thread that read it. Must not block; an
	 * exception it throws is logged and never breaks the stream.
	 * @param upstream the upstream name
	 * @param method the notification method
	 * @param params its parameters
	 */
	void onNotification(String upstream, String method, @Nullable JsonNode params);

}
