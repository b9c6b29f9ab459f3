package dev.mcpx.autoconfigure.tasks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A task of the 2026-07-28 tasks extension outlives the application that started it: its row is written with its
 * era to a JDBC journal (H2), the application stops without following it, and the next application on the same
 * database takes it up (its lease passed) and follows it by its id, in the era the upstream speaks (the row binds no
 * session), publishing its outcome once. Against the project's extension server ({@link NodePeer#TASKS}), counted on
 * the server: the tool ran once and its call was sent once.
 */
class ModernTaskResumptionTest {

	private NodePeer peer;

	private ApplicationContextRunner runner;

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.TASKS);
		this.runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, RestClientAutoConfiguration.class,
					McpxAutoConfiguration.class, McpxTasksAutoConfiguration.class))
			.withBean(Completions.class)
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:modern-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"mcpx.tasks.store=jdbc", "mcpx.tasks.lease=1s", "mcpx.tasks.resume-interval=200ms",
					"mcpx.clients.jobs.url=" + this.peer.url(), "mcpx.clients.jobs.protocol=modern");
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void aTaskStartedByOneApplicationIsFinishedByTheNextOnTheSameJournal() {
		AtomicReference<String> taskId = new AtomicReference<>();
		this.runner.run((first) -> {
			McpTask task = first.getBean(McpClients.class).get("jobs")
				.startTool("delete_record", Map.of("id", "r1", "durationMs", 2000));
			taskId.set(task.id());
			McpTaskRecord row = first.getBean(McpTaskStore.class).find("jobs", task.id()).orElseThrow();
			assertThat(row.era()).isEqualTo(ProtocolEra.MODERN);
			assertThat(row.session()).isNull();
			assertThat(row.status().isTerminal()).isFalse();
			assertThat(first.getBean(Completions.class).events).isEmpty();
		});

		this.runner.run((second) -> {
			List<McpTaskCompletedEvent> completed = second.getBean(Completions.class).events;
			await().atMost(Duration.ofSeconds(60)).until(() -> !completed.isEmpty());
			assertThat(completed).singleElement().satisfies((event) -> {
				assertThat(event.taskId()).isEqualTo(taskId.get());
				assertThat(event.status()).isEqualTo(McpTaskStatus.COMPLETED);
				assertThat(event.result().text()).isEqualTo("Deleted record r1");
				assertThat(event.resumedAfterRestart()).isTrue();
			});
			McpTaskRecord row = second.getBean(McpTaskStore.class).find("jobs", taskId.get()).orElseThrow();
			assertThat(row.status()).isEqualTo(McpTaskStatus.COMPLETED);
			assertThat(row.era()).isEqualTo(ProtocolEra.MODERN);
		});
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
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
