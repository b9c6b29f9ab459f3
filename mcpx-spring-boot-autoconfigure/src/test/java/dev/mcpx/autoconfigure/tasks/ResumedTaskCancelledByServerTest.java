package dev.mcpx.autoconfigure.tasks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.json.JsonMapper;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.error.McpTaskCancelledException;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A journalled task that the server cancelled of its own accord while no application followed it (2025-11-25
 * basic/utilities/tasks §Task Status Lifecycle: {@code cancelled} is terminal): the next application takes it up and
 * ends it as cancelled, its one outcome an {@link McpTaskCancelledException} naming the task, not a generic failure;
 * the row says {@code cancelled}. Against the project's 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}), whose
 * tasks span sessions; the tool ran once and its call was sent once.
 */
class ResumedTaskCancelledByServerTest {

	private NodePeer peer;

	private ApplicationContextRunner runner;

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		this.runner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, RestClientAutoConfiguration.class,
					McpxAutoConfiguration.class, McpxTasksAutoConfiguration.class))
			.withBean(ModernTaskResumptionTest.Completions.class)
			.withPropertyValues(
					"spring.datasource.url=jdbc:h2:mem:cancelled-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"mcpx.tasks.store=jdbc", "mcpx.tasks.lease=1s", "mcpx.tasks.resume-interval=200ms",
					"mcpx.clients.jobs.url=" + this.peer.url(), "mcpx.clients.jobs.protocol=legacy");
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void aTaskTheServerCancelledWhileNoApplicationFollowedItEndsCancelledOnceAfterTheRestart() {
		AtomicReference<String> taskId = new AtomicReference<>();
		this.runner.run((first) -> {
			McpTask task = first.getBean(McpClients.class)
				.get("jobs")
				.startTool("delete_record", Map.of("id", "c1", "durationMs", 60_000));
			taskId.set(task.id());
			assertThat(first.getBean(McpTaskStore.class).find("jobs", task.id()).orElseThrow().status().isTerminal())
				.isFalse();
		});
		assertThat(this.peer.admin("cancel", JsonMapper.shared().createObjectNode().put("taskId", taskId.get()))
			.path("cancelled")
			.asBoolean()).as("the server cancelled the task").isTrue();

		this.runner.run((second) -> {
			List<McpTaskCompletedEvent> completed = second.getBean(ModernTaskResumptionTest.Completions.class).events;
			await().atMost(Duration.ofSeconds(60)).until(() -> !completed.isEmpty());
			assertThat(completed).singleElement().satisfies((event) -> {
				assertThat(event.taskId()).isEqualTo(taskId.get());
				assertThat(event.status()).isEqualTo(McpTaskStatus.CANCELLED);
				assertThat(event.result()).isNull();
				assertThat(event.resumedAfterRestart()).isTrue();
				assertThat(event.failure()).isInstanceOfSatisfying(McpTaskCancelledException.class, (cancelled) -> {
					assertThat(cancelled.taskId()).isEqualTo(taskId.get());
					assertThat(cancelled.tool()).isEqualTo("delete_record");
				});
			});
			assertThat(second.getBean(McpTaskStore.class).find("jobs", taskId.get()).orElseThrow().status())
				.isEqualTo(McpTaskStatus.CANCELLED);
		});
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
	}

}
