package dev.mcpx.autoconfigure.tasks;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task in flight on an upstream that is removed while the application runs stays in the journal, unclaimed while no
 * upstream has its name, and is taken up again by the resumption ({@code TaskJournalResumer}) once an upstream of that
 * name comes back: followed to its outcome by its id, never sent again (docs/architecture.md, "The live registry" and
 * "The task journal"). Against the project's 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}), whose tasks outlive
 * their session, with the in-memory journal; counted on the server.
 */
class RemovedUpstreamTasksTest {

	private static final Duration LEASE = Duration.ofSeconds(1);

	private static final Duration RESUME_INTERVAL = Duration.ofMillis(200);

	/** Generous: a wait never decides a result. */
	private static final Duration WAIT = Duration.ofSeconds(60);

	private NodePeer peer;

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void aTaskInFlightOnARemovedUpstreamIsTakenUpWhenAnUpstreamOfThatNameComesBack() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
					McpxTasksAutoConfiguration.class))
			.withBean(Completions.class)
			.withPropertyValues("mcpx.tasks.lease=" + LEASE.toMillis() + "ms",
					"mcpx.tasks.resume-interval=" + RESUME_INTERVAL.toMillis() + "ms")
			.run((context) -> {
				McpClients clients = context.getBean(McpClients.class);
				McpTaskStore store = context.getBean(McpTaskStore.class);
				List<McpTaskCompletedEvent> completed = context.getBean(Completions.class).events;
				McpClient jobs = clients.add("jobs", URI.create(this.peer.url()),
						(builder) -> builder.protocol(ProtocolMode.LEGACY).requestTimeout(Duration.ofSeconds(10)));
				McpTask task = jobs.startTool("delete_record", Map.of("id", "r1", "durationMs", 4000));
				assertThat(task.status().isTerminal()).isFalse();

				clients.remove("jobs").get(30, TimeUnit.SECONDS);

				// the row stays, unfinished, and no process takes it while no upstream has its name
				McpTaskRecord row = store.find("jobs", task.id()).orElseThrow();
				assertThat(row.status().isTerminal()).isFalse();
				Instant leaseEnds = java.util.Objects.requireNonNull(row.leaseExpiresAt());
				awaitTrue(() -> Instant.now().isAfter(leaseEnds.plus(RESUME_INTERVAL.multipliedBy(5))));
				assertThat(store.find("jobs", task.id()).orElseThrow().status().isTerminal()).isFalse();
				assertThat(completed).isEmpty();

				clients.add("jobs", URI.create(this.peer.url()), (builder) -> builder.protocol(ProtocolMode.LEGACY));

				awaitTrue(() -> !completed.isEmpty());
				assertThat(completed).singleElement().satisfies((event) -> {
					assertThat(event.upstream()).isEqualTo("jobs");
					assertThat(event.taskId()).isEqualTo(task.id());
					assertThat(event.status()).isEqualTo(McpTaskStatus.COMPLETED);
					assertThat(event.result().text()).isEqualTo("Deleted record r1");
					assertThat(event.resumedAfterRestart()).isTrue();
				});
				assertThat(store.find("jobs", task.id()).orElseThrow().status()).isEqualTo(McpTaskStatus.COMPLETED);
				// followed by its id: the tool ran once, and its call was sent once
				assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
				assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
			});
	}

	private static void awaitTrue(BooleanSupplier condition) {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("not within " + WAIT);
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError(ex);
			}
		}
	}

	/** The application's listener of task outcomes. */
	static class Completions {

		final List<McpTaskCompletedEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void completed(McpTaskCompletedEvent event) {
			this.events.add(event);
		}

	}

}
