package dev.mcpx.client.tasks;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thousand tasks in flight, each followed to its outcome with {@code McpTask.awaitAsync}, hold a
 * bounded number of threads: the shared polling's timer and workers, not a thread per task
 * (docs/architecture.md, "Tasks"). Against the project's 2026-07-28 task server, which counts the
 * executions and tool calls; threads are counted, nothing is timed.
 */
class TaskPollingThreadsTest {

	private static final int TASKS = 1000;

	/** The polling's own threads: one timer and its workers ({@code TaskPolling.WORKERS} = 8). */
	private static final int POLLING_THREADS = 1 + 8;

	private NodePeer peer;

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("many", URI.create(this.peer.url()))
		.protocol(ProtocolMode.MODERN)
		.requestTimeout(Duration.ofSeconds(30)));

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.TASKS);
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void aThousandTasksInFlightHoldABoundedNumberOfThreads() throws Exception {
		McpClient client = this.clients.client();
		client.listTools();
		List<McpTask> tasks = startAll(client);
		int before = liveThreads();

		List<CompletableFuture<CallToolResult>> outcomes = new ArrayList<>();
		for (McpTask task : tasks) {
			outcomes.add(task.awaitAsync(Duration.ofMinutes(5)));
		}
		// every task keeps working (ten minutes) until the server is told to finish it: all in flight now
		awaitPolled(TASKS);
		assertThat(outcomes).noneMatch(CompletableFuture::isDone);
		assertThat(pollingThreads()).isBetween(1L, (long) POLLING_THREADS);
		// the polling's threads, and whatever the HTTP client keeps for eight concurrent requests: not one per task
		assertThat(liveThreads() - before).isLessThan(POLLING_THREADS + 16);

		for (McpTask task : tasks) {
			this.peer.admin("finish", JsonNodeFactory.instance.objectNode().put("taskId", task.id()));
		}
		CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);

		for (int i = 0; i < TASKS; i++) {
			assertThat(outcomes.get(i).get().text()).isEqualTo("Deleted record r" + i);
		}
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(TASKS);
		assertThat(counts.at("/requests/tools~1call").asInt()).isEqualTo(TASKS);
		assertThat(counts.at("/tasks/completed").asInt()).isEqualTo(TASKS);
	}

	/** Starts the tasks from a few threads of the test's own, which end before threads are counted. */
	private List<McpTask> startAll(McpClient client) throws Exception {
		ExecutorService starters = Executors.newFixedThreadPool(8);
		try {
			List<Future<McpTask>> started = new ArrayList<>();
			for (int i = 0; i < TASKS; i++) {
				String id = "r" + i;
				started.add(starters.submit(() -> client.startTool("delete_record",
						Map.of("id", id, "durationMs", 600_000, "pollIntervalMs", 1000))));
			}
			List<McpTask> tasks = new ArrayList<>();
			for (Future<McpTask> task : started) {
				tasks.add(task.get(2, TimeUnit.MINUTES));
			}
			return tasks;
		}
		finally {
			starters.shutdown();
			assertThat(starters.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		}
	}

	/** Waits until the server answered at least that many polls: the polling reached every task. */
	private void awaitPolled(int polls) throws InterruptedException {
		long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
		while (this.peer.counts().at("/requests/tasks~1get").asInt() < polls) {
			if (System.nanoTime() > until) {
				throw new AssertionError("the tasks were not polled: " + this.peer.counts().at("/requests"));
			}
			Thread.sleep(100);
		}
	}

	private static long pollingThreads() {
		return Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.getName().startsWith("mcpx-task-poll-"))
			.count();
	}

	private static int liveThreads() {
		return Thread.getAllStackTraces().size();
	}

}
