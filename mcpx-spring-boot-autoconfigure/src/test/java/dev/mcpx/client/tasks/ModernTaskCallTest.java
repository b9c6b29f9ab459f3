package dev.mcpx.client.tasks;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
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
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpInputRequiredException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTaskCancelledException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ScriptedInputHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code callTool}, {@code startTool} and {@code resumeTask} follow a task of the 2026-07-28 tasks
 * extension ({@code io.modelcontextprotocol/tasks}, SEP-2663) to its outcome, against the project's
 * extension server ({@link NodePeer#TASKS}, judged by the official suite in
 * {@code TasksServerConformanceTest}), counting what the server saw. The server refuses a task
 * request that does not declare the extension ({@code -32021}) or whose {@code Mcp-Name} is not the
 * task id ({@code -32020}), and answers {@code tasks/result} with {@code -32601}: every test that
 * reaches its result shows the client declared the extension on each task request, named the task
 * in {@code Mcp-Name} and took the outcome inline from {@code tasks/get}.
 */
class ModernTaskCallTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private NodePeer peer;

	private final McpTaskStore store = McpTaskStore.inMemory();

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("tasks", URI.create(this.peer.url()))
		.protocol(ProtocolMode.MODERN)
		.requestTimeout(TIMEOUT));

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.TASKS);
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void aToolCallAnsweredWithATaskIsFollowedToItsInlineResult() {
		CallToolResult result = this.clients.client().callTool("delete_record", Map.of("id", "m1", "durationMs", 300));

		assertThat(result.text()).isEqualTo("Deleted record m1");
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/tasks/completed").asInt()).isEqualTo(1);
		assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(counts.at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(counts.at("/requests/tasks~1get").asInt()).isPositive();
		assertThat(counts.at("/requests/tasks~1result").isMissingNode()).isTrue();
	}

	@Test
	void aToolTheServerRunsOnlyAsATaskIsCalledSinceTheExtensionIsDeclared() {
		// failing_job is refused with -32021 to a client that does not declare the extension
		CallToolResult result = this.clients.client().callTool("failing_job", Map.of("durationMs", 100));

		assertThat(result.isError()).isTrue();
		assertThat(this.peer.counts().at("/executions/failing_job").asInt()).isEqualTo(1);
	}

	@Test
	void withTheExtensionDisabledNoTaskIsMadeAndAToolThatNeedsOneIsRefused() {
		McpClient client = this.clients.client((builder) -> builder
			.recoveryPolicy(RecoveryPolicy.custom().taskExtension(false).build()));

		assertThat(client.callTool("delete_record", Map.of("id", "m0", "durationMs", 100)).text())
			.isEqualTo("Deleted record m0");
		assertThatExceptionOfType(McpJsonRpcException.class)
			.isThrownBy(() -> client.callTool("failing_job", Map.of("durationMs", 100)))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo(-32021));
		JsonNode counts = this.peer.counts();
		assertThat(counts.path("tasks").isEmpty()).isTrue();
		assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(counts.at("/executions/failing_job").asInt()).isZero();
	}

	@Test
	void aFailedTaskIsTheCallsJsonRpcError() {
		assertThatExceptionOfType(McpJsonRpcException.class)
			.isThrownBy(() -> this.clients.client().callTool("protocol_error_job", Map.of("durationMs", 100)))
			.satisfies((ex) -> {
				assertThat(ex.code()).isEqualTo(-32603);
				assertThat(ex.getMessage()).contains("tools/call failed with JSON-RPC error -32603");
			});
		assertThat(this.peer.counts().at("/executions/protocol_error_job").asInt()).isEqualTo(1);
	}

	@Test
	void anInputRequestOfTheTaskIsAnsweredOnceWithTasksUpdate() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> ScriptedInputHandler.accept("{\"confirm\":true}"));
		McpClient client = this.clients.client((builder) -> builder.inputHandler(handler));

		CallToolResult result = client.callTool("confirm_delete", Map.of("filename", "f.txt"));

		assertThat(result.text()).isEqualTo("Deleted f.txt");
		assertThat(handler.requests()).hasSize(1);
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/requests/tasks~1update").asInt()).isEqualTo(1);
		assertThat(counts.at("/executions/confirm_delete").asInt()).isEqualTo(1);
	}

	@Test
	void twoQuestionsAskedAtOnceAreAnsweredInOneUpdate() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> request.params().path("message").asString().contains("name")
						? ScriptedInputHandler.accept("{\"name\":\"Ada\"}")
						: ScriptedInputHandler.accept("{\"confirm\":true}"));

		CallToolResult result = this.clients.client((builder) -> builder.inputHandler(handler))
			.callTool("multi_input", Map.of());

		assertThat(result.text()).isEqualTo("name=Ada, confirmed=true");
		assertThat(handler.requests()).hasSize(2);
		assertThat(this.peer.counts().at("/requests/tasks~1update").asInt()).isEqualTo(1);
	}

	@Test
	void anInputRoundBeforeTheTaskAndTheTaskAfterAreOneCall() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> ScriptedInputHandler.accept("{\"name\":\"Grace\"}"));

		CallToolResult result = this.clients.client((builder) -> builder.inputHandler(handler))
			.callTool("test_tool_with_task", Map.of());

		assertThat(result.text()).isEqualTo("Hello, Grace!");
		assertThat(handler.requests()).hasSize(1);
		assertThat(this.peer.counts().at("/executions/test_tool_with_task").asInt()).isEqualTo(1);
	}

	@Test
	void aQuestionNoHandlerCanAnswerIsTypedAndTheTaskIsCancelled() {
		assertThatExceptionOfType(McpInputRequiredException.class)
			.isThrownBy(() -> this.clients.client().callTool("confirm_delete", Map.of("filename", "g.txt")))
			.withMessageContaining("elicitation/create");
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/requests/tasks~1cancel").asInt()).isEqualTo(1);
		assertThat(counts.at("/tasks/cancelled").asInt()).isEqualTo(1);
	}

	@Test
	void aLostUpdateAnswerIsNotAskedOfTheApplicationAgain() {
		this.peer.admin("cut-request", JsonNodeFactory.instance.objectNode().put("method", "tasks/update").put("times", 1));
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> ScriptedInputHandler.accept("{\"confirm\":true}"));

		CallToolResult result = this.clients.client((builder) -> builder.inputHandler(handler))
			.callTool("confirm_delete", Map.of("filename", "h.txt"));

		assertThat(result.text()).isEqualTo("Deleted h.txt");
		assertThat(handler.requests()).hasSize(1);
		JsonNode counts = this.peer.counts();
		assertThat(counts.path("cuts").asInt()).isEqualTo(1);
		assertThat(counts.at("/requests/tasks~1update").asInt()).isBetween(1, 2);
		assertThat(counts.at("/executions/confirm_delete").asInt()).isEqualTo(1);
	}

	@Test
	void statusChangesReachTheCallersProgressConsumer() {
		List<McpProgress> seen = new CopyOnWriteArrayList<>();
		CallToolResult result = this.clients.client().callTool("delete_record", Map.of("id", "m9", "durationMs", 300),
				McpCallOptions.builder().onProgress(seen::add).build());

		assertThat(result.text()).isEqualTo("Deleted record m9");
		assertThat(seen).extracting(McpProgress::message).first().asString().startsWith("task working");
		assertThat(seen).extracting(McpProgress::message).last().asString().startsWith("task completed");
		assertThat(seen).extracting(McpProgress::progress).isSorted();
	}

	@Test
	void aCallCutBeforeItsTaskIdArrivedFollowsTheReplayGateAsAnyCall() {
		// the window before the CreateTaskResult: a destructive call is not sent again, and may have run
		this.peer.cut("delete_record", 1);
		assertThatExceptionOfType(McpStreamLostException.class)
			.isThrownBy(() -> this.clients.client().callTool("delete_record", Map.of("id", "m10", "durationMs", 100)))
			.isNotInstanceOf(McpTaskLostException.class)
			.withMessageContaining("may have executed; it was not re-issued");
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tasks~1get").asInt()).isZero();
	}

	@Test
	void aCutPollIsPolledAgainAndTheToolRunsOnce() {
		this.peer.admin("cut-request", JsonNodeFactory.instance.objectNode().put("method", "tasks/get").put("times", 2));

		CallToolResult result = this.clients.client().callTool("delete_record", Map.of("id", "m3", "durationMs", 500));

		assertThat(result.text()).isEqualTo("Deleted record m3");
		JsonNode counts = this.peer.counts();
		assertThat(counts.path("cuts").asInt()).isEqualTo(2);
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
				.submit(() -> client.callTool("delete_record", Map.of("id", "m4", "durationMs", 60_000)));
			String taskId = awaitTasks(1).get(0).path("taskId").asString();
			this.peer.admin("POST", "forget-tasks");

			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(20, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(McpTaskLostException.class)
				.isInstanceOf(McpStreamLostException.class)
				.withMessageContaining(taskId)
				.withMessageContaining("may have run");
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
				.submit(() -> client.callTool("delete_record", Map.of("id", "m5", "durationMs", 60_000)));
			String taskId = awaitTasks(1).get(0).path("taskId").asString();
			this.peer.admin("cancel", JsonNodeFactory.instance.objectNode().put("taskId", taskId));

			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(20, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(McpTaskCancelledException.class)
				.withMessageContaining("the server cancelled task " + taskId)
				.satisfies((ex) -> assertThat(((McpTaskCancelledException) ex).taskId()).isEqualTo(taskId));
		}
		finally {
			caller.shutdownNow();
		}
		assertThat(this.peer.counts().at("/requests/tasks~1cancel").isMissingNode()).isTrue();
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
	}

	@Test
	void interruptingTheCallerCancelsTheTask() throws Exception {
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
				.isThrownBy(() -> client.callTool("delete_record", Map.of("id", "m6", "durationMs", 60_000)))
				.satisfies((ex) -> assertThat(ex.method()).isEqualTo("tools/call"));
			assertThat(Thread.interrupted()).isTrue();
		}
		finally {
			interrupter.join(10_000);
		}
		assertThat(this.peer.counts().at("/requests/tasks~1cancel").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/tasks/cancelled").asInt()).isEqualTo(1);
	}

	@Test
	void aStartedTaskIsResumedByAnotherClientAndJournalledInItsEra() {
		McpTask started = this.clients.client((builder) -> builder.taskStore(this.store))
			.startTool("delete_record", Map.of("id", "m7", "durationMs", 800));

		assertThat(started.id()).isEqualTo(this.peer.admin("GET", "tasks").at("/tasks/0/taskId").asString());
		assertThat(started.reference().session()).isNull();
		McpTaskRecord row = this.store.find("tasks", started.id()).orElseThrow();
		assertThat(row.era()).isEqualTo(ProtocolEra.MODERN);
		assertThat(row.session()).isNull();

		McpTask resumed = this.clients.client().resumeTask(started.reference());

		assertThat(resumed.await(TIMEOUT).text()).isEqualTo("Deleted record m7");
		assertThat(started.await(TIMEOUT).text()).isEqualTo("Deleted record m7");
		assertThat(this.store.find("tasks", started.id()).orElseThrow().status()).isEqualTo(McpTaskStatus.COMPLETED);
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aStartedTaskIsCancelledWithAnAcknowledgement() {
		McpTask task = this.clients.client().startTool("delete_record", Map.of("id", "m8", "durationMs", 60_000));

		assertThat(task.cancel()).isTrue();
		assertThat(task.status()).isEqualTo(McpTaskStatus.CANCELLED);
		assertThat(this.peer.counts().at("/tasks/cancelled").asInt()).isEqualTo(1);
		assertThatExceptionOfType(McpTaskCancelledException.class).isThrownBy(() -> task.await(TIMEOUT))
			.withMessageContaining("as this client asked");
	}

	@Test
	void aToolTheServerAnswersDirectlyGivesACompletedTask() {
		McpTask task = this.clients.client().startTool("greet", Map.of("name", "z"));

		assertThat(task.status()).isEqualTo(McpTaskStatus.COMPLETED);
		assertThat(task.reference().direct()).isTrue();
		assertThat(task.await(Duration.ofMillis(1)).text()).isEqualTo("Hello, z!");
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

}
