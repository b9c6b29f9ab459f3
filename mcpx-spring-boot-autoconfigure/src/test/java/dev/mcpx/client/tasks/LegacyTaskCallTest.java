package dev.mcpx.client.tasks;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
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

import dev.mcpx.client.McpCallOptions;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTaskCancelledException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.client.model.TaskSupport;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.recovery.TaskAugmentation;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ScriptedInputHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code callTool} follows a 2025-11-25 task to its outcome (basic/utilities/tasks), against the
 * project's task peer ({@link NodePeer#LEGACY_TASKS}, whose tasks span sessions), counting what
 * the server saw: which calls asked for a task (§Tool-Level Negotiation), that each tool ran
 * once whatever broke on the way (a cut poll, an expired session), that a forgotten task ends as
 * {@link McpTaskLostException} with its id, and that an interrupted or timed-out call cancels its
 * task (§Task Cancellation).
 */
class LegacyTaskCallTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private NodePeer peer;

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("tasks", java.net.URI.create(this.peer.url()))
		.protocol(ProtocolMode.LEGACY)
		.requestTimeout(TIMEOUT));

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void toolsListTheirTaskSupport() {
		List<Tool> tools = this.clients.client().listTools();
		assertThat(tools).filteredOn((tool) -> tool.name().equals("failing_job"))
			.extracting(Tool::taskSupport)
			.containsExactly(TaskSupport.REQUIRED);
		assertThat(tools).filteredOn((tool) -> tool.name().equals("greet"))
			.extracting(Tool::taskSupport)
			.containsExactly(TaskSupport.FORBIDDEN);
	}

	@Test
	void aDestructiveOptionalToolIsCalledAsATaskAndFollowedToItsResult() {
		CallToolResult result = this.clients.client().callTool("delete_record", Map.of("id", "r1", "durationMs", 300));

		assertThat(result.text()).isEqualTo("Deleted record r1");
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/augmented/delete_record").asInt()).isEqualTo(1);
		assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(counts.at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(counts.at("/requests/tasks~1get").asInt()).isPositive();
		assertThat(counts.at("/requests/tasks~1result").asInt()).isEqualTo(1);
	}

	@Test
	void aReadOnlyOptionalToolIsCalledDirectlyUnlessTasksAreAlwaysAsked() {
		McpClient unsafe = this.clients.client();
		assertThat(unsafe.callTool("slow_compute", Map.of("seconds", 0, "label", "a")).text()).startsWith("Computed a");
		assertThat(this.peer.counts().at("/augmented/slow_compute").asInt()).isZero();

		McpClient always = this.clients.client((builder) -> builder.taskAugmentation(TaskAugmentation.ALWAYS));
		assertThat(always.callTool("slow_compute", Map.of("seconds", 0, "label", "b")).text()).startsWith("Computed b");
		assertThat(this.peer.counts().at("/augmented/slow_compute").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/slow_compute").asInt()).isEqualTo(2);
	}

	@Test
	void aForbiddenToolIsNeverAndARequiredToolAlwaysAskedAsATask() {
		McpClient never = this.clients.client((builder) -> builder.taskAugmentation(TaskAugmentation.NEVER));
		assertThat(never.callTool("greet", Map.of("name", "x")).text()).isEqualTo("Hello, x!");
		CallToolResult failed = never.callTool("failing_job", Map.of("durationMs", 100));
		assertThat(failed.isError()).isTrue();
		McpClient optionalNever = never;
		assertThat(optionalNever.callTool("delete_record", Map.of("id", "r9", "durationMs", 0)).text())
			.isEqualTo("Deleted record r9");

		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/augmented/greet").asInt()).isZero();
		assertThat(counts.at("/augmented/failing_job").asInt()).isEqualTo(1);
		assertThat(counts.at("/augmented/delete_record").asInt()).isZero();
		assertThat(counts.at("/executions/failing_job").asInt()).isEqualTo(1);
	}

	@Test
	void statusChangesReachTheCallersProgressConsumer() {
		List<McpProgress> seen = new CopyOnWriteArrayList<>();
		McpCallOptions options = McpCallOptions.builder().onProgress(seen::add).build();
		CallToolResult result = this.clients.client()
			.callTool("delete_record", Map.of("id", "r2", "durationMs", 300), options);

		assertThat(result.text()).isEqualTo("Deleted record r2");
		assertThat(seen).extracting(McpProgress::message).first().asString().startsWith("task working");
		assertThat(seen).extracting(McpProgress::message).last().asString().startsWith("task completed");
		assertThat(seen).extracting(McpProgress::progress).isSorted();
	}

	@Test
	void aQuestionOfTheTaskIsAnsweredByTheInputHandler() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> ScriptedInputHandler.accept("{\"confirm\":true}"));
		McpClient client = this.clients.client((builder) -> builder.inputHandler(handler));

		CallToolResult result = client.callTool("confirm_delete", Map.of("filename", "f.txt"));

		assertThat(result.text()).isEqualTo("Deleted f.txt");
		assertThat(handler.requests()).hasSize(1);
		assertThat(this.peer.counts().at("/executions/confirm_delete").asInt()).isEqualTo(1);
	}

	@Test
	void aCutPollIsPolledAgainAndTheToolRunsOnce() {
		this.peer.admin("cut-request", JsonNodeFactory.instance.objectNode().put("method", "tasks/get").put("times", 2));

		CallToolResult result = this.clients.client().callTool("delete_record", Map.of("id", "r3", "durationMs", 500));

		assertThat(result.text()).isEqualTo("Deleted record r3");
		JsonNode counts = this.peer.counts();
		assertThat(counts.path("cuts").asInt()).isEqualTo(2);
		assertThat(counts.at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aTaskWhoseSessionExpiredIsAskedForInTheNewSessionAndNotCalledAgain() throws Exception {
		McpClient client = this.clients.client();
		client.listTools();
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> call = caller
				.submit(() -> client.callTool("delete_record", Map.of("id", "r4", "durationMs", 1500)));
			awaitTasks(1);
			this.peer.forgetSessions();

			assertThat(call.get(20, TimeUnit.SECONDS).text()).isEqualTo("Deleted record r4");
		}
		finally {
			caller.shutdownNow();
		}
		JsonNode counts = this.peer.counts();
		assertThat(counts.path("initialize").asInt()).isEqualTo(2);
		assertThat(counts.at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aTaskTheServerForgotEndsAsLostNamingItsIdAndIsNotCalledAgain() throws Exception {
		McpClient client = this.clients.client();
		client.listTools();
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> call = caller
				.submit(() -> client.callTool("delete_record", Map.of("id", "r5", "durationMs", 60_000)));
			String taskId = awaitTasks(1).get(0).path("taskId").asString();
			this.peer.admin("POST", "forget-tasks");

			assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
				.isThrownBy(() -> call.get(20, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(McpTaskLostException.class)
				.isInstanceOf(McpStreamLostException.class)
				.withMessageContaining(taskId)
				.withMessageContaining("may have run")
				.satisfies((ex) -> assertThat(((McpTaskLostException) ex).taskId()).isEqualTo(taskId));
		}
		finally {
			caller.shutdownNow();
		}
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aTaskTheServerCancelledIsATypedOutcomeNamingIt() throws Exception {
		McpClient client = this.clients.client();
		client.listTools();
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> call = caller
				.submit(() -> client.callTool("delete_record", Map.of("id", "r10", "durationMs", 60_000)));
			String taskId = awaitTasks(1).get(0).path("taskId").asString();
			this.peer.admin("cancel", JsonNodeFactory.instance.objectNode().put("taskId", taskId));

			assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
				.isThrownBy(() -> call.get(20, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(McpTaskCancelledException.class)
				.isNotInstanceOf(McpCancelledException.class)
				.withMessageContaining("the server cancelled task " + taskId)
				.withMessageContaining("Cancelled by the server")
				.satisfies((ex) -> assertThat(((McpTaskCancelledException) ex).taskId()).isEqualTo(taskId));
		}
		finally {
			caller.shutdownNow();
		}
		assertThat(this.peer.counts().at("/requests/tasks~1cancel").asInt()).isZero();
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void interruptingTheCallerCancelsTheTask() throws Exception {
		McpClient client = this.clients.client();
		client.listTools();
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> call = caller
				.submit(() -> client.callTool("delete_record", Map.of("id", "r6", "durationMs", 60_000)));
			awaitPoll();
			call.cancel(true);
			awaitStatus("cancelled");
		}
		finally {
			caller.shutdownNow();
		}
		assertThat(this.peer.counts().at("/requests/tasks~1cancel").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void anInterruptedCallThrowsCancelled() throws Exception {
		McpClient client = this.clients.client();
		client.listTools();
		Thread self = Thread.currentThread();
		Thread interrupter = new Thread(() -> {
			try {
				awaitPoll();
				self.interrupt();
			}
			catch (Exception ex) {
				// the assertion below fails
			}
		});
		interrupter.start();
		try {
			assertThatExceptionOfType(McpCancelledException.class)
				.isThrownBy(() -> client.callTool("delete_record", Map.of("id", "r7", "durationMs", 60_000)))
				.satisfies((ex) -> assertThat(ex.method()).isEqualTo("tools/call"));
			assertThat(Thread.interrupted()).isTrue();
		}
		finally {
			interrupter.join(10_000);
		}
		assertThat(this.peer.counts().at("/tasks/cancelled").asInt()).isEqualTo(1);
	}

	@Test
	void aTaskWhoseStatusStaysTheSamePastTheCallsTimeoutTimesOutNamingItsIdAndIsCancelled() {
		// the call's timeout bounds the silence between two changes of status; polls that
		// find the same status are not a change
		McpCallOptions options = McpCallOptions.builder().timeout(Duration.ofMillis(1500)).build();
		assertThatExceptionOfType(McpTimeoutException.class)
			.isThrownBy(() -> this.clients.client()
				.callTool("delete_record", Map.of("id", "r8", "durationMs", 60_000, "pollIntervalMs", 100), options))
			.withMessageContaining("task ")
			.withMessageContaining("reported no change of status within 1500 ms")
			.withMessageContaining("cancelled");
		assertThat(this.peer.counts().at("/tasks/cancelled").asInt()).isEqualTo(1);
	}

	@Test
	void aProtocolErrorOfTheTaskIsTheCallsError() {
		assertThatExceptionOfType(McpJsonRpcException.class)
			.isThrownBy(() -> this.clients.client((builder) -> builder.taskAugmentation(TaskAugmentation.ALWAYS))
				.callTool("protocol_error_job", Map.of("durationMs", 100)))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(-32603));
		assertThat(this.peer.counts().at("/executions/protocol_error_job").asInt()).isEqualTo(1);
	}

	private List<JsonNode> awaitTasks(int count) throws InterruptedException {
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (System.nanoTime() < until) {
			JsonNode tasks = this.peer.admin("GET", "tasks").path("tasks");
			if (tasks.size() >= count) {
				return tasks.valueStream().toList();
			}
			Thread.sleep(50);
		}
		throw new AssertionError("the peer never had " + count + " task(s)");
	}

	/** Once the server saw a poll, the client knows the task id. */
	private void awaitPoll() throws InterruptedException {
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (this.peer.counts().at("/requests/tasks~1get").asInt() == 0) {
			if (System.nanoTime() > until) {
				throw new AssertionError("the client never polled");
			}
			Thread.sleep(20);
		}
	}

	private void awaitStatus(String status) throws InterruptedException {
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (System.nanoTime() < until) {
			if (this.peer.counts().at("/tasks/" + status).asInt() > 0) {
				return;
			}
			Thread.sleep(50);
		}
		throw new AssertionError("no task became " + status + ": " + this.peer.counts());
	}

}
