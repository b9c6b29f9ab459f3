package dev.mcpx.autoconfigure;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.mcpx.autoconfigure.actuate.McpxEventHistory;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.event.McpUpstreamChangedEvent;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Cause;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Change;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each change of the live set of upstreams is published as an application event
 * ({@link McpUpstreamChangedEvent}), as the clients' recovery events are: what changed and why, with the endpoint
 * as the client's status shows it and no secret (docs/architecture.md, "The live registry").
 */
class LiveSetEventsTest {

	private static JavaSdkServer server;

	@BeforeAll
	static void start() {
		server = JavaSdkServer.start();
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class))
		.withBean(Changes.class)
		.withBean(McpxEventHistory.class)
		.withPropertyValues("mcpx.clients.configured.url=" + server.url());

	@Test
	void upstreamsAddedReplacedAndRemovedThroughTheApiAreApplicationEventsWithoutSecrets() {
		this.contextRunner.run((context) -> {
			McpClients clients = context.getBean(McpClients.class);
			List<McpUpstreamChangedEvent> heard = context.getBean(Changes.class).events;

			clients.add("added", URI.create(server.url() + "?token=q-secret"),
					(builder) -> builder.header("X-Api-Key", "h-secret")).ping();
			clients.add("added", URI.create(server.url()), (builder) -> {
			});
			clients.remove("added").get(10, TimeUnit.SECONDS);
			// refused: a configured upstream wins, and nothing changed
			McpClient kept = clients.add("configured", URI.create(server.url()), (builder) -> {
			});

			assertThat(kept).isSameAs(context.getBean("configured", McpClient.class));
			assertThat(heard).extracting(McpUpstreamChangedEvent::upstream, McpUpstreamChangedEvent::change,
					McpUpstreamChangedEvent::cause)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("added", Change.ADDED, Cause.API),
						org.assertj.core.groups.Tuple.tuple("added", Change.REPLACED, Cause.API),
						org.assertj.core.groups.Tuple.tuple("added", Change.REMOVED, Cause.API));
			assertThat(heard).allSatisfy((event) -> {
				assertThat(event.url()).isEqualTo(server.url());
				assertThat(event.toString()).doesNotContain("q-secret").doesNotContain("h-secret");
			});
			// the mcpx endpoint's history shows them with the clients' own events
			assertThat(context.getBean(McpxEventHistory.class).recent()).extracting(McpxEventHistory.Entry::event)
				.filteredOn(McpUpstreamChangedEvent.class::isInstance)
				.containsExactlyElementsOf(heard);
		});
	}

	/** The application's listener. */
	static class Changes {

		final List<McpUpstreamChangedEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void changed(McpUpstreamChangedEvent event) {
			this.events.add(event);
		}

	}

}
