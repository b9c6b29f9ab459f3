package dev.mcpx.client.internal.session;

import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.protocol.McpMethods;
import tools.jackson.databind.JsonNode;

/**
 * Where the notifications a server sends go, whatever stream carried them and in either
 * era: a list change first drops the listing it names, a log message is written to the
 * upstream's logger, a resource update reaches its subscribers; then every notification
 * reaches the application, so that an application that lists again on a change is not
 * served the stale listing.
 */
public final class ServerNotifications implements ServerMessageListener {

	private final Consumer<String> listChanged;

	private final ServerLog serverLog;

	private final Subscriptions subscriptions;

	private final ServerMessageListener application;

	/**
	 * Creates the routes of one client's notifications.
	 * @param listChanged told every notification's method first, to drop the listing a
	 * {@code notifications/*}{@code /list_changed} names
	 * @param serverLog writes {@code notifications/message}
	 * @param subscriptions delivers {@code notifications/resources/updated}
	 * @param application hears every notification last
	 */
	public ServerNotifications(Consumer<String> listChanged, ServerLog serverLog, Subscriptions subscriptions,
			ServerMessageListener application) {
		this.listChanged = listChanged;
		this.serverLog = serverLog;
		this.subscriptions = subscriptions;
		this.application = application;
	}

	@Override
	public void onNotification(String upstream, String method, @Nullable JsonNode params) {
		this.listChanged.accept(method);
		if (McpMethods.MESSAGE.equals(method)) {
			this.serverLog.write(params);
		}
		else if (McpMethods.RESOURCES_UPDATED.equals(method)) {
			this.subscriptions.updated(params);
		}
		this.application.onNotification(upstream, method, params);
	}

}
