package dev.mcpx.client.recovery;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.testsupport.JavaSdkServer;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Recovery from real restarts of independently written servers: the official
 * {@code server-everything} (which answers a forgotten session with 400, not 404) and the
 * official Java SDK server in this JVM (404).
 */
class RestartedServersRecoveryTest {

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	@Test
	void serverEverythingRestartedMidUseIsRecovered() {
		NodePeer everything = NodePeer.startEverything();
		int port = everything.port();
		try (McpClient client = McpClient.builder("everything", URI.create(everything.url()))
			.eventListener(this.events::add)
			.build()) {
			assertThat(client.callTool("echo", Map.of("message", "before")).text()).contains("before");

			everything.close();
			everything = NodePeer.startEverything(port);

			// It answers the old session with 400 "Bad Request: No valid session ID provided".
			assertThat(client.callTool("echo", Map.of("message", "after")).text()).contains("after");
			assertThat(this.events).filteredOn(McpSessionExpiredEvent.class::isInstance)
				.singleElement()
				.satisfies((e) -> assertThat(((McpSessionExpiredEvent) e).status()).isEqualTo(400));
			assertThat(this.events).filteredOn(McpSessionRecoveredEvent.class::isInstance).hasSize(1);
		}
		finally {
			everything.close();
		}
	}

	@Test
	void aSessionDroppedByTheJavaSdkServerIsRecovered() {
		try (JavaSdkServer server = JavaSdkServer.start();
				McpClient client = McpClient.builder("java-sdk", URI.create(server.url()))
					.eventListener(this.events::add)
					.build()) {
			assertThat(client.callTool("echo", Map.of("text", "before")).text()).isEqualTo("before");
			int initializes = server.initializeCount();

			server.restart();

			assertThat(client.callTool("delete_item", Map.of("id", "5")).text()).isEqualTo("deleted 5");
			assertThat(server.initializeCount()).isEqualTo(initializes + 1);
			assertThat(server.executions("delete_item")).isEqualTo(1);
			assertThat(this.events).filteredOn(McpSessionRecoveredEvent.class::isInstance).hasSize(1);
		}
	}

}
