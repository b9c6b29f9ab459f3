package dev.mcpx.sample.tasks;

import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The reports MCP server, whatever carries its messages: one tool, {@code compile_report {topic, seconds?}}, that runs
 * only as a task (2025-11-25 basic/utilities/tasks), works {@code seconds} (default 20) and answers
 * {@code "Report on <topic>: 3 sources, 2 findings"}. It speaks the 2025-11-25 Streamable HTTP transport with
 * sessions, every answer as {@code application/json}, and keeps its tasks across sessions. {@link ReportUpstream} serves
 * it in a process of its own, which outlives the application; {@link InProcessReportsConfiguration} inside the
 * application, so that the task demo needs no second process by default.
 */
public final class ReportServer implements AutoCloseable {

	/** The tool that runs as a task. */
	public static final String TOOL = "compile_report";

	private static final JsonMapper json = JsonMapper.shared();

	/** How long the server keeps a task from its creation (§TTL and Resource Management). */
	private static final long TTL_MS = 600_000;

	private static final long POLL_INTERVAL_MS = 1000;

	private final ScheduledExecutorService work = Executors.newSingleThreadScheduledExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "report-work");
		thread.setDaemon(true);
		return thread;
	});

	private final Set<String> sessions = ConcurrentHashMap.newKeySet();

	private final Map<String, Task> tasks = new ConcurrentHashMap<>();

	private final AtomicInteger executions = new AtomicInteger();

	/**
	 * How many reports were compiled (a task created is a report compiled once).
	 * @return the count
	 */
	public int executions() {
		return this.executions.get();
	}

	/**
	 * The count of compiled reports, as {@code GET /executions} answers it.
	 * @return {@code {"compile_report": n}}
	 */
	public ObjectNode executionsJson() {
		return json.createObjectNode().put(TOOL, this.executions.get());
	}

	@Override
	public void close() {
		this.work.shutdownNow();
	}

	/**
	 * Answers one HTTP request to the MCP endpoint.
	 * @param httpMethod the request's method
	 * @param session its {@code Mcp-Session-Id} header
	 * @param body its body
	 * @return the answer
	 * @throws IOException if the body cannot be read
	 */
	public Reply handle(String httpMethod, @Nullable String session, InputStream body) throws IOException {
		if (httpMethod.equals("DELETE")) {
			if (session != null) {
				this.sessions.remove(session);
			}
			return new Reply(200, null, null);
		}
		if (!httpMethod.equals("POST")) {
			return new Reply(405, null, null); // no listen stream: nothing to announce
		}
		JsonNode message;
		try (body) {
			message = json.readTree(body);
		}
		String method = message.path("method").asString("");
		JsonNode id = message.get("id");
		if (method.equals("initialize")) {
			String created = UUID.randomUUID().toString();
			this.sessions.add(created);
			return new Reply(200, answer(id, initialized()), created);
		}
		if (session == null || !this.sessions.contains(session)) {
			// 2025-11-25 transports §Session Management, rule 3: an unknown session is answered 404
			return new Reply((session == null) ? 400 : 404, error(id, -32001, "Session not found"), null);
		}
		if (id == null) {
			return new Reply(202, null, null); // a notification
		}
		return new Reply(200, request(id, method, message.path("params")), null);
	}

	private ObjectNode request(JsonNode id, String method, JsonNode params) {
		return switch (method) {
			case "ping" -> answer(id, json.createObjectNode());
			case "tools/list" -> answer(id, tools());
			case "tools/call" -> call(id, params);
			case "tasks/get" -> withTask(id, params, (task) -> answer(id, task.json()));
			case "tasks/result" -> withTask(id, params, (task) -> {
				ObjectNode result = task.awaitResult();
				// §Result Retrieval, rule 4: what the call would have answered; a cancelled report has no result
				return (result != null) ? answer(id, result) : error(id, -32603, "The report was cancelled");
			});
			case "tasks/cancel" -> withTask(id, params, (task) -> answer(id, task.cancel().json()));
			default -> error(id, -32601, "Method not found: " + method);
		};
	}

	private ObjectNode call(JsonNode id, JsonNode params) {
		if (!TOOL.equals(params.path("name").asString(""))) {
			return error(id, -32602, "Unknown tool: " + params.path("name").asString(""));
		}
		if (!params.has("task")) {
			// 2025-11-25 basic/utilities/tasks §Tool-Level Negotiation: a required tool is called as a task
			return error(id, -32601, TOOL + " runs only as a task");
		}
		JsonNode arguments = params.path("arguments");
		Task task = new Task(UUID.randomUUID().toString().replace("-", ""), arguments.path("topic").asString("MCP"));
		this.tasks.put(task.id, task);
		this.executions.incrementAndGet();
		this.work.schedule(task::complete, arguments.path("seconds").asLong(20), TimeUnit.SECONDS);
		return answer(id, json.createObjectNode().set("task", task.json()));
	}

	private ObjectNode withTask(JsonNode id, JsonNode params, java.util.function.Function<Task, ObjectNode> then) {
		Task task = this.tasks.get(params.path("taskId").asString(""));
		if (task == null) {
			return error(id, -32602, "Task not found");
		}
		return then.apply(task);
	}

	private static ObjectNode initialized() {
		ObjectNode result = json.createObjectNode().put("protocolVersion", "2025-11-25");
		ObjectNode capabilities = result.putObject("capabilities");
		capabilities.putObject("tools");
		ObjectNode tasks = capabilities.putObject("tasks");
		tasks.putObject("cancel");
		tasks.putObject("requests").putObject("tools").putObject("call");
		result.putObject("serverInfo").put("name", "mcpx-demo-reports").put("version", "1.0.0");
		return result;
	}

	private static ObjectNode tools() {
		ObjectNode tool = json.createObjectNode()
			.put("name", TOOL)
			.put("description", "Compiles a report on a topic; it takes a while, so it runs as a task.");
		ObjectNode schema = tool.putObject("inputSchema").put("type", "object");
		ObjectNode properties = schema.putObject("properties");
		properties.putObject("topic").put("type", "string");
		properties.putObject("seconds").put("type", "integer").put("description", "How long it takes (20 by default)");
		tool.putObject("execution").put("taskSupport", "required");
		tool.putObject("annotations").put("readOnlyHint", false).put("idempotentHint", false);
		ObjectNode result = json.createObjectNode();
		result.putArray("tools").add(tool);
		return result;
	}

	private static ObjectNode answer(@Nullable JsonNode id, JsonNode result) {
		ObjectNode answer = json.createObjectNode().put("jsonrpc", "2.0");
		answer.set("id", id);
		answer.set("result", result);
		return answer;
	}

	private static ObjectNode error(@Nullable JsonNode id, int code, String message) {
		ObjectNode answer = json.createObjectNode().put("jsonrpc", "2.0");
		answer.set("id", id);
		answer.putObject("error").put("code", code).put("message", message);
		return answer;
	}

	/**
	 * An answer to one HTTP request.
	 * @param status the HTTP status
	 * @param body the JSON body, absent for none
	 * @param session the {@code Mcp-Session-Id} to send, absent for none
	 */
	public record Reply(int status, @Nullable JsonNode body, @Nullable String session) {
	}

	/** One report being compiled. */
	private static final class Task {

		private final String id;

		private final String topic;

		private final Instant createdAt = Instant.now();

		private volatile Instant updatedAt = this.createdAt;

		private volatile String status = "working";

		private Task(String id, String topic) {
			this.id = id;
			this.topic = topic;
		}

		ObjectNode json() {
			ObjectNode task = json.createObjectNode().put("taskId", this.id).put("status", this.status);
			if (this.status.equals("working")) {
				task.put("statusMessage", "Compiling the report on " + this.topic);
			}
			return task.put("createdAt", this.createdAt.toString())
				.put("lastUpdatedAt", this.updatedAt.toString())
				.put("ttl", TTL_MS)
				.put("pollInterval", POLL_INTERVAL_MS);
		}

		synchronized void complete() {
			if (this.status.equals("working")) {
				this.status = "completed";
				this.updatedAt = Instant.now();
				notifyAll();
			}
		}

		synchronized Task cancel() {
			if (this.status.equals("working")) {
				this.status = "cancelled";
				this.updatedAt = Instant.now();
				notifyAll();
			}
			return this;
		}

		/** 2025-11-25 basic/utilities/tasks §Result Retrieval: blocks until the task is terminal. */
		synchronized @Nullable ObjectNode awaitResult() {
			while (this.status.equals("working")) {
				try {
					wait();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					break;
				}
			}
			if (!this.status.equals("completed")) {
				return null;
			}
			ObjectNode result = json.createObjectNode().put("isError", false);
			result.putArray("content")
				.addObject()
				.put("type", "text")
				.put("text", "Report on " + this.topic + ": 3 sources, 2 findings");
			result.putObject("_meta").putObject("io.modelcontextprotocol/related-task").put("taskId", this.id);
			return result;
		}

	}

}
