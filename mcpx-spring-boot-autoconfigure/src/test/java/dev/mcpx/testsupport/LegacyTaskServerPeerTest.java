package dev.mcpx.testsupport;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Proves the 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}, {@code docs/test-peers.md}) over
 * raw HTTP: its task store spans sessions (a task started in one session is polled, answered and
 * fetched from another, and from a restarted process with a file store), its executions are
 * counted once, and its hooks (a cut {@code tools/call} after the task was created, a cut
 * {@code tasks/get}, forgotten tasks) do what client tests need; status changes reach the creating
 * session as {@code notifications/tasks/status}. Where it should agree with
 * {@code server-everything} (2025-11-25 basic/utilities/tasks: capabilities, the
 * {@code CreateTaskResult}, {@code tasks/get}, {@code tasks/cancel}, unknown tasks; both built on the
 * TypeScript SDK v1) one test drives both, and pins where they differ.
 */
class LegacyTaskServerPeerTest {

	private static final String VERSION = "2025-11-25";

	private static final Duration PATIENCE = Duration.ofSeconds(15);

	private final RawRpc rpc = new RawRpc();

	private NodePeer peer;

	private int nextId;

	/** The answer to the last initialize, for the server's capabilities. */
	private JsonNode lastInitialize;

	@AfterEach
	void stop() {
		if (this.peer != null) {
			this.peer.close();
		}
	}

	@Test
	void toolsDeclareTheirTaskSupportAndTheServerItsTaskCapabilities() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		String session = open(true);
		JsonNode tools = call(session, "tools/list", Map.of()).at("/result/tools");
		Map<String, String> support = new HashMap<>();
		tools.forEach((tool) -> support.put(tool.path("name").asString(), tool.at("/execution/taskSupport").asString()));
		assertThat(support).containsExactlyInAnyOrderEntriesOf(Map.of("greet", "forbidden", "slow_compute", "optional",
				"delete_record", "optional", "protocol_error_job", "optional", "failing_job", "required", "confirm_delete",
				"required", "multi_input", "required"));

		ObjectNode task = RawRpc.JSON.createObjectNode();
		JsonNode refused = call(session, "tools/call", Map.of("name", "greet", "arguments", Map.of("name", "x"), "task", task));
		assertThat(refused.at("/error/code").asInt()).isEqualTo(-32601);
		assertThat(this.peer.counts().at("/augmented/greet").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/greet").asInt()).isZero();
	}

	@Test
	void aTaskStartedInOneSessionIsFollowedFromAnother() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		String first = open(false);
		String second = open(false);
		JsonNode created = startTask(first, "delete_record", Map.of("id", "r1", "durationMs", 300));
		String taskId = created.at("/task/taskId").asString();
		assertThat(created.at("/_meta/io.modelcontextprotocol~1model-immediate-response").asString()).contains(taskId);

		assertThat(call(second, "tasks/get", Map.of("taskId", taskId)).at("/result/taskId").asString()).isEqualTo(taskId);
		JsonNode result = call(second, "tasks/result", Map.of("taskId", taskId)).path("result");
		assertThat(result.at("/content/0/text").asString()).isEqualTo("Deleted record r1");
		assertThat(result.at("/_meta/io.modelcontextprotocol~1related-task/taskId").asString()).isEqualTo(taskId);
		assertThat(call(second, "tasks/list", Map.of()).at("/result/tasks/0/taskId").asString()).isEqualTo(taskId);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/augmented/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aQuestionIsAskedAgainInTheSessionThatWaitsForTheResult() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		String first = open(true);
		String second = open(true);
		String taskId = startTask(first, "confirm_delete", Map.of("filename", "f.txt")).at("/task/taskId").asString();
		assertThat(call(second, "tasks/get", Map.of("taskId", taskId)).at("/result/status").asString())
			.isEqualTo("input_required");

		RawRpc.SseStream result = this.rpc.open(this.peer.url(), headers(second),
				request("tasks/result", Map.of("taskId", taskId)));
		JsonNode question = result.next(PATIENCE);
		assertThat(question.path("method").asString()).isEqualTo("elicitation/create");
		assertThat(question.at("/params/_meta/io.modelcontextprotocol~1related-task/taskId").asString()).isEqualTo(taskId);
		ObjectNode answer = RawRpc.JSON.createObjectNode().put("jsonrpc", "2.0");
		answer.set("id", question.path("id"));
		answer.putObject("result").put("action", "accept").putObject("content").put("confirm", true);
		assertThat(this.rpc.post(this.peer.url(), headers(second), answer).statusCode()).isEqualTo(202);

		JsonNode outcome = result.next(PATIENCE);
		assertThat(outcome.at("/result/content/0/text").asString()).isEqualTo("Deleted f.txt");
		assertThat(this.peer.counts().at("/executions/confirm_delete").asInt()).isEqualTo(1);
	}

	@Test
	void statusChangesAreAnnouncedToTheSessionThatCreatedTheTask() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		String session = open(false);
		RawRpc.SseStream stream = this.rpc.get(this.peer.url(), headers(session));
		assertThat(stream.status()).isEqualTo(200);
		String taskId = startTask(session, "delete_record", Map.of("id", "r5", "durationMs", 200)).at("/task/taskId").asString();
		JsonNode status = stream.next(PATIENCE);
		while (!status.at("/params/status").asString().equals("completed")) {
			assertThat(status.path("method").asString()).isEqualTo("notifications/tasks/status");
			status = stream.next(PATIENCE);
		}
		assertThat(status.at("/params/taskId").asString()).isEqualTo(taskId);
	}

	@Test
	void aCutCallLeavesItsTaskAndACutPollLosesOnlyThatAnswer() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		String session = open(false);
		this.peer.cut("delete_record", 1);
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> post(session, "tools/call",
				Map.of("name", "delete_record", "arguments", Map.of("id", "r2", "durationMs", 60_000), "task", Map.of())));
		JsonNode tasks = this.peer.admin("GET", "tasks").path("tasks");
		assertThat(tasks).hasSize(1);
		String taskId = tasks.get(0).path("taskId").asString();

		this.peer.admin("cut-request", RawRpc.JSON.createObjectNode().put("method", "tasks/get").put("times", 1));
		assertThatExceptionOfType(IOException.class)
			.isThrownBy(() -> post(session, "tasks/get", Map.of("taskId", taskId)));
		assertThat(call(session, "tasks/get", Map.of("taskId", taskId)).at("/result/status").asString()).isEqualTo("working");
		assertThat(this.peer.counts().path("cuts").asInt()).isEqualTo(2);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void forgottenTasksAreUnknownInEverySession() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		String session = open(false);
		String taskId = startTask(session, "delete_record", Map.of("id", "r3", "durationMs", 60_000)).at("/task/taskId").asString();
		assertThat(this.peer.admin("POST", "forget-tasks").path("dropped").asInt()).isEqualTo(1);
		assertThat(call(open(false), "tasks/get", Map.of("taskId", taskId)).at("/error/code").asInt()).isEqualTo(-32602);
		assertThat(call(session, "tasks/result", Map.of("taskId", taskId)).at("/error/code").asInt()).isEqualTo(-32602);
	}

	@Test
	void aRestartedProcessWithAFileStoreFinishesItsTasksForNewSessions(@TempDir Path dir) throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS, 0, Map.of(NodePeer.TASK_STORE, dir.resolve("tasks.json").toString()));
		String session = open(false);
		String taskId = startTask(session, "delete_record", Map.of("id", "r4", "durationMs", 1500)).at("/task/taskId").asString();

		this.peer = this.peer.restart();
		assertThat(post(session, "tasks/get", Map.of("taskId", taskId)).statusCode()).isEqualTo(404);
		JsonNode result = call(open(false), "tasks/result", Map.of("taskId", taskId));
		assertThat(result.at("/result/content/0/text").asString()).isEqualTo("Deleted record r4");
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().path("initialize").asInt()).isEqualTo(1);
	}

	/**
	 * What both servers answer alike, and the two differences: server-everything keeps a task in
	 * the store of the session that created it, so another session's {@code tasks/get} is
	 * {@code -32602}, where this peer's store spans sessions; and a forbidden tool called with
	 * {@code task} is {@code -32601} here, {@code -32602} there.
	 */
	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "legacy-tasks-server", "server-everything" })
	void agreesWithServerEverythingWhereItShould(String server) throws Exception {
		boolean everything = server.equals("server-everything");
		this.peer = everything ? NodePeer.startEverything() : NodePeer.start(NodePeer.LEGACY_TASKS);
		String tool = everything ? "simulate-research-query" : "failing_job";
		Map<String, Object> args = everything ? Map.of("topic", "tasks") : Map.of("durationMs", 60_000);
		String session = open(false);
		JsonNode capabilities = this.lastInitialize.at("/result/capabilities/tasks");
		assertThat(capabilities.has("list") && capabilities.has("cancel") && capabilities.at("/requests/tools").has("call"))
			.as("tasks capabilities %s", capabilities).isTrue();

		// a required tool without task: the SDK v1 answers with an isError result naming -32601
		JsonNode direct = call(session, "tools/call", Map.of("name", tool, "arguments", args));
		assertThat(direct.at("/result/isError").asBoolean()).isTrue();
		assertThat(direct.at("/result/content/0/text").asString()).contains("-32601");

		// a forbidden tool with task: this peer answers -32601 (2025-11-25 §Tool-Level Negotiation:
		// SHOULD); the SDK v1 fails to build a CreateTaskResult and answers -32602
		Map<String, Object> forbidden = new LinkedHashMap<>();
		forbidden.put("name", everything ? "echo" : "greet");
		forbidden.put("arguments", everything ? Map.of("message", "x") : Map.of("name", "x"));
		forbidden.put("task", Map.of());
		assertThat(call(session, "tools/call", forbidden).at("/error/code").asInt()).isEqualTo(everything ? -32602 : -32601);

		JsonNode task = startTask(session, tool, args).path("task");
		assertThat(task.path("status").asString()).isEqualTo("working");
		assertThat(task.path("ttl").isNumber() && task.path("pollInterval").isNumber()).isTrue();
		assertThat(task.path("createdAt").asString()).isNotBlank();
		assertThat(task.path("lastUpdatedAt").asString()).isNotBlank();
		String taskId = task.path("taskId").asString();
		assertThat(call(session, "tasks/get", Map.of("taskId", taskId)).at("/result/taskId").asString()).isEqualTo(taskId);
		assertThat(call(session, "tasks/get", Map.of("taskId", "no-such-task")).at("/error/code").asInt()).isEqualTo(-32602);

		JsonNode elsewhere = call(open(false), "tasks/get", Map.of("taskId", taskId));
		if (everything) {
			assertThat(elsewhere.at("/error/code").asInt()).isEqualTo(-32602);
		}
		else {
			assertThat(elsewhere.at("/result/taskId").asString()).isEqualTo(taskId);
		}

		assertThat(call(session, "tasks/cancel", Map.of("taskId", taskId)).at("/result/status").asString()).isEqualTo("cancelled");
		assertThat(call(session, "tasks/cancel", Map.of("taskId", taskId)).at("/error/code").asInt()).isEqualTo(-32602);
	}

	private JsonNode startTask(String session, String tool, Map<String, ?> args) throws Exception {
		Map<String, Object> params = new LinkedHashMap<>();
		params.put("name", tool);
		params.put("arguments", args);
		params.put("task", Map.of("ttl", 60_000));
		JsonNode answer = call(session, "tools/call", params);
		assertThat(answer.at("/result/task/taskId").asString()).as("a task in %s", answer).isNotBlank();
		return answer.path("result");
	}

	/** Opens a session (initialize, then notifications/initialized), declaring elicitation when asked. */
	private String open(boolean elicitation) throws Exception {
		ObjectNode params = RawRpc.JSON.createObjectNode().put("protocolVersion", VERSION);
		ObjectNode capabilities = params.putObject("capabilities");
		if (elicitation) {
			capabilities.putObject("elicitation");
		}
		params.putObject("clientInfo").put("name", "raw").put("version", "1");
		HttpResponse<String> initialize = this.rpc.post(this.peer.url(), Map.of(), request("initialize", params));
		assertThat(initialize.statusCode()).isEqualTo(200);
		this.lastInitialize = RawRpc.answer(initialize);
		String session = initialize.headers().firstValue("Mcp-Session-Id").orElseThrow();
		ObjectNode initialized = RawRpc.JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "notifications/initialized");
		assertThat(this.rpc.post(this.peer.url(), headers(session), initialized).statusCode()).isEqualTo(202);
		return session;
	}

	private JsonNode call(String session, String method, Object params) throws Exception {
		HttpResponse<String> response = post(session, method, params);
		assertThat(response.statusCode()).as("%s answered %s", method, response.body()).isEqualTo(200);
		return RawRpc.answer(response);
	}

	private HttpResponse<String> post(String session, String method, Object params) throws IOException, InterruptedException {
		return this.rpc.post(this.peer.url(), headers(session), request(method, params));
	}

	private static Map<String, String> headers(String session) {
		return Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", VERSION);
	}

	private ObjectNode request(String method, Object params) {
		ObjectNode body = RawRpc.JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++this.nextId).put("method", method);
		body.set("params", RawRpc.JSON.valueToTree(params));
		return body;
	}

}
