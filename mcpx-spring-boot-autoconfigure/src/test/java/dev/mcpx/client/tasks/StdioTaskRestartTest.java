package dev.mcpx.client.tasks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.testsupport.StdioPeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task of a supervised stdio upstream whose process is killed mid-task (2026-07-28 basic/transports/stdio
 * §Unexpected Termination): the next poll finds the process gone, the supervisor starts a new one, and the task is
 * asked about once in its session (2025-11-25 basic/utilities/tasks §Task ID Requirements, rule 3: ids are unique
 * across the receiver), never called again. The peer ({@code stdio-tasks-server.mjs}) keeps its tasks in a file, so
 * the new process knows the task and finishes it; it counts the {@code tools/call} it ran in that file and in its log.
 */
class StdioTaskRestartTest {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final JsonMapper json = JsonMapper.shared();

	@TempDir
	Path dir;

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	@Test
	void aTaskWhoseServerProcessWasKilledIsAskedForInTheRestartedProcessAndRunsOnce() throws Exception {
		Path log = this.dir.resolve("peer.log");
		Path store = this.dir.resolve("tasks.json");
		try (McpClient client = McpClient.stdio("jobs", StdioPeer.tasksCommand(log, store))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(WAIT)
			.handshakeTimeout(Duration.ofSeconds(20))
			.restartPolicy(ProcessRestartPolicy.custom().initialBackoff(Duration.ofMillis(10)).build())
			.taskStore(McpTaskStore.inMemory())
			.eventListener(this.events::add)
			.build()) {
			McpTask task = client.startTool("delete_record",
					Map.of("id", "r1", "durationMs", 4000, "pollIntervalMs", 200));
			assertThat(task.status()).isEqualTo(McpTaskStatus.WORKING);
			long first = StdioPeer.lastPid(log);

			// killed while the task works: its outcome is due after the process is gone
			StdioPeer.kill9(first);
			CallToolResult result = task.await(WAIT);

			assertThat(result.isError()).isFalse();
			assertThat(result.text()).isEqualTo("Deleted record r1");
			assertThat(StdioPeer.lastPid(log)).isNotEqualTo(first);
		}
		assertThat(StdioPeer.starts(log)).as("the killed process and the one that replaced it").isEqualTo(2);
		assertThat(StdioPeer.executions(log, "delete_record")).as("tools/call run by the server").isEqualTo(1);
		JsonNode book = json.readTree(Files.readString(store));
		assertThat(book.path("executions").size()).as("executions in the task book").isEqualTo(1);
		assertThat(book.path("tasks").get(0).path("status").asString()).isEqualTo("completed");

		List<McpTaskResumedEvent> resumed = this.events.stream()
			.filter(McpTaskResumedEvent.class::isInstance)
			.map(McpTaskResumedEvent.class::cast)
			.toList();
		assertThat(resumed).singleElement().satisfies((event) -> {
			assertThat(event.cause()).isEqualTo(McpTaskResumedEvent.Cause.PROCESS_RESTARTED);
			assertThat(event.upstream()).isEqualTo("jobs");
			assertThat(event.tool()).isEqualTo("delete_record");
			assertThat(event.taskId()).isEqualTo(task(book));
		});
		assertThat(this.events).filteredOn(McpTaskCompletedEvent.class::isInstance)
			.singleElement()
			.isInstanceOfSatisfying(McpTaskCompletedEvent.class,
					(completed) -> assertThat(completed.status()).isEqualTo(McpTaskStatus.COMPLETED));
	}

	private static String task(JsonNode book) {
		return book.path("tasks").get(0).path("taskId").asString();
	}

}
