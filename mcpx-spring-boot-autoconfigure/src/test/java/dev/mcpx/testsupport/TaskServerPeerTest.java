package dev.mcpx.testsupport;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * Proves the 2026-07-28 task peer ({@link NodePeer#TASKS}, {@code docs/test-peers.md}) over raw
 * HTTP, so client tests can trust its counters and hooks: executions counted once per task and
 * kept across a restart with a file store, a {@code tools/call} cut after its task was created, a
 * cut {@code tasks/get}, forgotten tasks, ttl and poll interval from the arguments, and
 * {@code notifications/tasks} on {@code subscriptions/listen}. What the conformance suite already
 * judges (the wire shapes of SEP-2663) is {@code TasksServerConformanceTest}'s.
 */
class TaskServerPeerTest {

	private static final String VERSION = "2026-07-28";

	private static final String TASKS = "io.modelcontextprotocol/tasks";

	private static final Duration PATIENCE = Duration.ofSeconds(15);

	private final RawRpc rpc = new RawRpc();

	private NodePeer peer;

	private int nextId;

	@AfterEach
	void stop() {
		if (this.peer != null) {
			this.peer.close();
		}
	}

	@Test
	void aDestructiveCallBecomesATaskThatRunsOnceAndIsPolledToItsResult() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		JsonNode created = result(call("delete_record", Map.of("id", "r1", "durationMs", 300), true));
		assertThat(created.path("resultType").asString()).isEqualTo("task");
		assertThat(created.path("status").asString()).isEqualTo("working");
		String taskId = created.path("taskId").asString();

		JsonNode done = awaitStatus(taskId, "completed");
		assertThat(done.at("/result/content/0/text").asString()).isEqualTo("Deleted record r1");
		assertThat(executions("delete_record")).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(this.peer.admin("GET", "tasks").at("/tasks/0/status").asString()).isEqualTo("completed");
	}

	@Test
	void withoutTheExtensionAnOptionalToolRunsDirectlyAndARequiredOneIsRefused() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		JsonNode direct = result(call("delete_record", Map.of("id", "r2", "durationMs", 0), false));
		assertThat(direct.path("resultType").asString()).isEqualTo("complete");
		assertThat(direct.at("/content/0/text").asString()).isEqualTo("Deleted record r2");

		HttpResponse<String> refused = call("failing_job", Map.of(), false);
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(RawRpc.answer(refused).at("/error/code").asInt()).isEqualTo(-32021);
		assertThat(RawRpc.answer(refused).at("/error/data/requiredCapabilities/extensions").has(TASKS)).isTrue();

		HttpResponse<String> poll = post("tasks/get", Map.of("taskId", "any"), false, "any");
		assertThat(poll.statusCode()).isEqualTo(400);
		assertThat(RawRpc.answer(poll).at("/error/code").asInt()).isEqualTo(-32021);
		assertThat(executions("delete_record")).isEqualTo(1);
		assertThat(executions("failing_job")).isZero();
	}

	@Test
	void mcpNameMustCarryTheTaskId() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		String taskId = startTask(Map.of("id", "r3", "durationMs", 60_000));
		HttpResponse<String> mismatch = post("tasks/get", Map.of("taskId", taskId), true, "another-task");
		assertThat(mismatch.statusCode()).isEqualTo(400);
		assertThat(RawRpc.answer(mismatch).at("/error/code").asInt()).isEqualTo(-32020);
		assertThat(result(post("tasks/get", Map.of("taskId", taskId), true, taskId)).path("status").asString())
			.isEqualTo("working");
	}

	@Test
	void aCutToolsCallLeavesATaskTheClientNeverSaw() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		this.peer.cut("delete_record", 1);
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> call("delete_record", Map.of("id", "r4", "durationMs", 100), true));
		JsonNode tasks = this.peer.admin("GET", "tasks").path("tasks");
		assertThat(tasks).hasSize(1);
		assertThat(tasks.get(0).at("/args/id").asString()).isEqualTo("r4");
		assertThat(executions("delete_record")).isEqualTo(1);
		assertThat(this.peer.counts().path("cuts").asInt()).isEqualTo(1);
		assertThat(awaitStatus(tasks.get(0).path("taskId").asString(), "completed").at("/result/content/0/text").asString())
			.isEqualTo("Deleted record r4");
	}

	@Test
	void aCutPollLosesOnlyThatAnswer() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		String taskId = startTask(Map.of("id", "r5", "durationMs", 60_000));
		cutRequest("tasks/get", taskId);
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> poll(taskId));
		assertThat(result(poll(taskId)).path("status").asString()).isEqualTo("working");
		assertThat(this.peer.counts().path("cuts").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tasks~1get").asInt()).isEqualTo(2);
	}

	@Test
	void forgottenTasksAreUnknownWhileTheirExecutionsStayCounted() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		String taskId = startTask(Map.of("id", "r6", "durationMs", 60_000));
		assertThat(this.peer.admin("POST", "forget-tasks").path("dropped").asInt()).isEqualTo(1);
		assertThat(RawRpc.answer(poll(taskId)).at("/error/code").asInt()).isEqualTo(-32602);
		assertThat(executions("delete_record")).isEqualTo(1);
	}

	@Test
	void aRestartKeepsTheTasksAndExecutionsOfAFileStore(@TempDir Path dir) throws Exception {
		Path store = dir.resolve("tasks.json");
		this.peer = NodePeer.start(NodePeer.TASKS, 0, Map.of(NodePeer.TASK_STORE, store.toString()));
		String running = startTask(Map.of("id", "r7", "durationMs", 1500));
		String finished = startTask(Map.of("id", "r8", "durationMs", 0));
		awaitStatus(finished, "completed");
		long firstPid = this.peer.admin("GET", "executions").at("/executions/0/pid").asLong();

		this.peer = this.peer.restart();
		assertThat(this.peer.admin("GET", "executions").at("/executions/0/pid").asLong()).isEqualTo(firstPid);
		assertThat(result(poll(finished)).at("/result/content/0/text").asString()).isEqualTo("Deleted record r8");
		assertThat(awaitStatus(running, "completed").at("/result/content/0/text").asString())
			.isEqualTo("Deleted record r7");
		assertThat(executions("delete_record")).isEqualTo(2);
		assertThat(Files.readString(store)).contains(running, finished);
	}

	@Test
	void aRestartWithoutAStoreLosesEveryTask() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		String taskId = startTask(Map.of("id", "r9", "durationMs", 60_000));
		this.peer = this.peer.restart();
		assertThat(RawRpc.answer(poll(taskId)).at("/error/code").asInt()).isEqualTo(-32602);
		assertThat(executions("delete_record")).isZero();
	}

	@Test
	void pollIntervalAndTtlComeFromTheArgumentsAndAnExpiredTaskIsGone() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		JsonNode created = result(call("delete_record",
				Map.of("id", "r10", "durationMs", 0, "pollIntervalMs", 50, "ttlMs", 1500), true));
		assertThat(created.path("pollIntervalMs").asInt()).isEqualTo(50);
		assertThat(created.path("ttlMs").asInt()).isEqualTo(1500);
		String taskId = created.path("taskId").asString();
		awaitStatus(taskId, "completed");
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (!RawRpc.answer(poll(taskId)).has("error")) {
			assertThat(System.nanoTime()).as("task %s gone after its ttl", taskId).isLessThan(deadline);
			Thread.sleep(100);
		}
		assertThat(RawRpc.answer(poll(taskId)).at("/error/code").asInt()).isEqualTo(-32602);

		Map<String, Object> unlimited = new LinkedHashMap<>();
		unlimited.put("id", "r11");
		unlimited.put("ttlMs", null);
		assertThat(result(call("delete_record", unlimited, true)).path("ttlMs").isNull()).isTrue();
	}

	@Test
	void finishEndsTheWorkNow() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		String taskId = startTask(Map.of("id", "r12", "durationMs", 600_000));
		ObjectNode body = RawRpc.JSON.createObjectNode().put("taskId", taskId);
		assertThat(this.peer.admin("finish", body).path("finished").asBoolean()).isTrue();
		assertThat(awaitStatus(taskId, "completed").at("/result/content/0/text").asString()).isEqualTo("Deleted record r12");
	}

	@Test
	void inputRequiredIsAnsweredWithTasksUpdate() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		String taskId = startTask(Map.of("id", "r13", "durationMs", 0, "confirm", true));
		JsonNode asking = awaitStatus(taskId, "input_required");
		assertThat(asking.at("/inputRequests/confirm/method").asString()).isEqualTo("elicitation/create");

		Map<String, Object> answers = Map.of("confirm", Map.of("action", "accept", "content", Map.of("confirm", true)),
				"unknown", Map.of("action", "accept"));
		JsonNode ack = result(post("tasks/update", Map.of("taskId", taskId, "inputResponses", answers), true, taskId));
		assertThat(ack.path("resultType").asString()).isEqualTo("complete");
		assertThat(awaitStatus(taskId, "completed").at("/result/content/0/text").asString()).isEqualTo("Deleted record r13");
		assertThat(this.peer.admin("GET", "tasks").at("/tasks/0/answers").has("unknown")).isFalse();
	}

	@Test
	void statusChangesArriveOnSubscriptionsListen() throws Exception {
		this.peer = NodePeer.start(NodePeer.TASKS);
		String taskId = startTask(Map.of("id", "r14", "durationMs", 60_000));
		RawRpc.SseStream listen = this.rpc.open(this.peer.url(), headers("subscriptions/listen", null),
				request("subscriptions/listen", Map.of("notifications", Map.of("taskIds", java.util.List.of(taskId))), true));
		assertThat(listen.status()).isEqualTo(200);
		JsonNode ack = listen.next(PATIENCE);
		assertThat(ack.path("method").asString()).isEqualTo("notifications/subscriptions/acknowledged");
		assertThat(ack.at("/params/notifications/taskIds/0").asString()).isEqualTo(taskId);
		assertThat(listen.next(PATIENCE).at("/params/status").asString()).isEqualTo("working");

		this.peer.admin("finish", RawRpc.JSON.createObjectNode().put("taskId", taskId));
		JsonNode completed = listen.next(PATIENCE);
		assertThat(completed.path("method").asString()).isEqualTo("notifications/tasks");
		assertThat(completed.at("/params/status").asString()).isEqualTo("completed");
		assertThat(completed.at("/params/result/content/0/text").asString()).isEqualTo("Deleted record r14");
		assertThat(completed.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asInt())
			.isEqualTo(ack.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asInt());
	}

	private String startTask(Map<String, Object> args) throws Exception {
		JsonNode created = result(call("delete_record", args, true));
		assertThat(created.path("resultType").asString()).as("a task for %s", args).isEqualTo("task");
		return created.path("taskId").asString();
	}

	private JsonNode awaitStatus(String taskId, String status) throws Exception {
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (true) {
			JsonNode task = result(poll(taskId));
			if (task.path("status").asString().equals(status)) {
				return task;
			}
			if (System.nanoTime() > deadline) {
				fail("task %s did not become %s: %s", taskId, status, task);
			}
			Thread.sleep(50);
		}
	}

	private void cutRequest(String method, String taskId) {
		ObjectNode body = RawRpc.JSON.createObjectNode().put("method", method).put("times", 1).put("taskId", taskId);
		this.peer.admin("cut-request", body);
	}

	private int executions(String tool) {
		return this.peer.counts().at("/executions/" + tool).asInt();
	}

	private HttpResponse<String> poll(String taskId) throws Exception {
		return post("tasks/get", Map.of("taskId", taskId), true, taskId);
	}

	private HttpResponse<String> call(String tool, Map<String, ?> arguments, boolean tasks) throws Exception {
		return post("tools/call", Map.of("name", tool, "arguments", arguments), tasks, tool);
	}

	private HttpResponse<String> post(String method, Map<String, ?> params, boolean tasks, String name)
			throws IOException, InterruptedException {
		return this.rpc.post(this.peer.url(), headers(method, name), request(method, params, tasks));
	}

	private static JsonNode result(HttpResponse<String> response) {
		JsonNode answer = RawRpc.answer(response);
		assertThat(answer.has("result")).as("a result in %s", answer).isTrue();
		return answer.path("result");
	}

	private static Map<String, String> headers(String method, String name) {
		Map<String, String> headers = new LinkedHashMap<>();
		headers.put("MCP-Protocol-Version", VERSION);
		headers.put("Mcp-Method", method);
		if (name != null) {
			headers.put("Mcp-Name", name);
		}
		return headers;
	}

	/** A request with the 2026-07-28 _meta envelope, declaring the tasks extension when asked. */
	private ObjectNode request(String method, Map<String, ?> params, boolean tasks) {
		ObjectNode body = RawRpc.JSON.createObjectNode();
		body.put("jsonrpc", "2.0").put("id", ++this.nextId).put("method", method);
		ObjectNode p = RawRpc.JSON.valueToTree(params);
		ObjectNode meta = p.putObject("_meta");
		meta.put("io.modelcontextprotocol/protocolVersion", VERSION);
		meta.putObject("io.modelcontextprotocol/clientInfo").put("name", "raw").put("version", "1");
		ObjectNode capabilities = meta.putObject("io.modelcontextprotocol/clientCapabilities");
		if (tasks) {
			capabilities.putObject("extensions").putObject(TASKS);
		}
		body.set("params", p);
		return body;
	}

}
