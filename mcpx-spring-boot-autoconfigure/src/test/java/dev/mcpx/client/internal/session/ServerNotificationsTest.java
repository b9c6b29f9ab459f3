package dev.mcpx.client.internal.session;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.Redaction;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ServerNotifications} alone: where each notification goes, and that the application
 * hears it last, after the client's own homes of it (docs/architecture.md, "The request
 * path").
 */
class ServerNotificationsTest {

	private static final JsonRpc jsonRpc = new JsonRpc(JsonMapper.shared());

	private static final String TOOLS_LIST_CHANGED = "notifications/tools/list_changed";

	private final BackgroundTasks background = new BackgroundTasks("up");

	private final Subscriptions subscriptions = new Subscriptions("up", jsonRpc, this.background);

	private final List<String> heard = new CopyOnWriteArrayList<>();

	private final ServerNotifications routes = new ServerNotifications((method) -> this.heard.add("listings " + method),
			new ServerLog("up", new Redaction(), null), this.subscriptions,
			(upstream, method, params) -> this.heard.add("application " + upstream + " " + method));

	@AfterEach
	void close() {
		this.background.close();
	}

	@Test
	void aListChangeDropsTheListingBeforeTheApplicationHearsIt() {
		this.routes.onNotification("up", TOOLS_LIST_CHANGED, null);

		assertThat(this.heard).containsExactly("listings " + TOOLS_LIST_CHANGED,
				"application up " + TOOLS_LIST_CHANGED);
	}

	@Test
	void aResourceUpdateReachesItsSubscribersBeforeTheApplication() {
		this.subscriptions.add("file:///a", (update) -> this.heard.add("subscriber " + update.uri()));
		ObjectNode params = jsonRpc.object().put("uri", "file:///a");

		this.routes.onNotification("up", McpMethods.RESOURCES_UPDATED, params);

		assertThat(this.heard).containsExactly("listings " + McpMethods.RESOURCES_UPDATED, "subscriber file:///a",
				"application up " + McpMethods.RESOURCES_UPDATED);
	}

	@Test
	void aLogMessageStillReachesTheApplication() {
		ObjectNode params = jsonRpc.object().put("level", "info").put("data", "hello");

		this.routes.onNotification("up", McpMethods.MESSAGE, params);

		assertThat(this.heard).containsExactly("listings " + McpMethods.MESSAGE, "application up " + McpMethods.MESSAGE);
	}

}
