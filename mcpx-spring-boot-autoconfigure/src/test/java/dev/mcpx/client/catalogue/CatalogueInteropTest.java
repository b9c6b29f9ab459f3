package dev.mcpx.client.catalogue;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.event.McpCatalogueInvalidatedEvent;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.model.CatalogueKind;
import dev.mcpx.testsupport.JavaSdkServer;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The catalogue cache against real servers, counted on the server side: a fresh listing
 * costs no round trip, a recovery drops every kind, a {@code list_changed} notification
 * (2025-11-25 server/tools §List Changed Notification) drops exactly its kind.
 */
class CatalogueInteropTest {

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	private McpClient client(String url) {
		return McpClient.builder("catalogue", URI.create(url)).eventListener(this.events::add).build();
	}

	private List<McpCatalogueInvalidatedEvent> invalidations() {
		return this.events.stream()
			.filter(McpCatalogueInvalidatedEvent.class::isInstance)
			.map(McpCatalogueInvalidatedEvent.class::cast)
			.toList();
	}

	@Test
	void aFreshListingCostsNoRoundTripAndARecoveryDropsEveryKind() {
		try (JavaSdkServer server = JavaSdkServer.start(); McpClient client = client(server.url())) {
			client.listTools();
			client.listPrompts();
			client.listTools();
			client.listPrompts();
			assertThat(server.requestCount("tools/list")).isEqualTo(1);
			assertThat(server.requestCount("prompts/list")).isEqualTo(1);

			server.restart();
			client.ping();

			client.listTools();
			client.listPrompts();
			assertThat(server.requestCount("tools/list")).isEqualTo(2);
			assertThat(server.requestCount("prompts/list")).isEqualTo(2);
			assertThat(invalidations()).singleElement().satisfies((e) -> {
				assertThat(e.kinds()).contains(CatalogueKind.TOOLS, CatalogueKind.PROMPTS);
				assertThat(e.reason()).contains("session recovered");
			});
		}
	}

	@Test
	void aListChangedNotificationFromTheJavaSdkServerDropsExactlyThatKind() {
		try (JavaSdkServer server = JavaSdkServer.start(); McpClient client = client(server.url())) {
			client.listTools();
			client.listPrompts();
			// The GET stream opens after the first success; the announcement needs it open.
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				server.announceListChanged("tools");
				assertThat(invalidations()).isNotEmpty();
			});

			assertThat(invalidations()).allSatisfy((e) -> {
				assertThat(e.kinds()).containsExactly(CatalogueKind.TOOLS);
				assertThat(e.reason()).isEqualTo("notifications/tools/list_changed");
			});
			client.listTools();
			client.listPrompts();
			assertThat(server.requestCount("tools/list")).isEqualTo(2);
			assertThat(server.requestCount("prompts/list")).isEqualTo(1);
		}
	}

	@Test
	void aListChangedNotificationFromTheTypeScriptServerDropsExactlyThatKind() {
		try (NodePeer server = NodePeer.start(NodePeer.LEGACY); McpClient client = client(server.url())) {
			client.listTools();
			client.listPrompts();
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				server.announceListChanged("prompts");
				assertThat(invalidations()).isNotEmpty();
			});

			assertThat(invalidations()).allSatisfy((e) -> assertThat(e.kinds()).containsExactly(CatalogueKind.PROMPTS));
			client.listTools();
			client.listPrompts();
			assertThat(server.counts().at("/requests/tools~1list").asInt()).isEqualTo(1);
			assertThat(server.counts().at("/requests/prompts~1list").asInt()).isEqualTo(2);
		}
	}

}
