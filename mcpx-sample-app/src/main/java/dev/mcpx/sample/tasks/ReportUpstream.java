package dev.mcpx.sample.tasks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A small MCP server, in a process of its own, whose one tool runs as a task (2025-11-25 basic/utilities/tasks):
 * {@code compile_report {topic, seconds?}} works {@code seconds} (default 20) and answers
 * {@code "Report on <topic>: 3 sources, 2 findings"}. It speaks the 2025-11-25 Streamable HTTP transport with sessions,
 * every answer as {@code application/json}, and keeps its tasks across sessions, so that an application killed
 * mid-task and started again finds its task here. {@code GET /executions} tells how many reports were compiled, for
 * the demo's reader and its test.
 * <p>
 * Run it with {@code ./mvnw -pl mcpx-sample-app -am spring-boot:run
 * -Dspring-boot.run.main-class=dev.mcpx.sample.tasks.ReportUpstream -Dspring-boot.run.arguments=8091}
 * (mcpx-sample-app/DEMO.md, "A task that outlives the application").
 */
public final class ReportUpstream implements AutoCloseable {

	/** The path the server answers MCP requests on. */
	public static final String PATH = "/mcp";

	/** The tool that runs as a task. */
	public static final String TOOL = "compile_report";

	private static final JsonMapper json = JsonMapper.shared();

	/** How long the server keeps a task from its creation (§TTL and Resource Management). */
	private static final long TTL_MS = 600_000;

	private static final long POLL_INTERVAL_MS = 1000;

	private final HttpServer server;

	private final ScheduledExecutorService work = Executors.newSingleThreadScheduledExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "report-work");
		thread.setDaemon(true);
		return thread;
	});

	private final Set<String> sessions = ConcurrentHashMap.newKeySet();

	private final Map<String, Task> tasks = new ConcurrentHashMap<>();

	private final AtomicInteger executions = new AtomicInteger();

	private ReportUpstream(HttpServer server) {
		this.server = server;
	}

	/**
	 * Starts the server on {@code 127.0.0.1}.
	 * @param port the port, {@code 0} for any free one
	 * @return the running server
	 * @throws IOException if the port cannot be bound
	 */
	public static ReportUpstream start(int port) throws IOException {
		HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
		ReportUpstream upstream = new ReportUpstream(http);
		http.createContext(PATH, upstream::mcp);
		http.createContext("/executions", (exchange) -> upstream.send(exchange, 200,
				json.createObjectNode().put(TOOL, upstream.executions.get()), null));
		http.setExecutor(Executors.newCachedThreadPool());
		http.start();
		return upstream;
	}

	/**
	 * Starts the server and runs until the process ends.
	 * @param args the port (default 8091)
	 * @throws IOException if the port cannot be bound
	 */
	public static void main(String[] args) throws IOException {
		ReportUpstream upstream = start((args.length > 0) ? Integer.parseInt(args[0]) : 8091);
		System.out.println("Report upstream listening on http://127.0.0.1:" + upstream.port() + PATH);
	}

	/**
	 * The port it listens on.
	 * @return the port
	 */
	public int port() {
		return this.server.getAddress().getPort();
	}

	/**
	 * How many reports were compiled (a task created is a report compiled once).
	 * @return the count
	 */
	public int executions() {
		return this.executions.get();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.work.shutdownNow();
	}

	private void mcp(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (exchange.getRequestMethod().equals("DELETE")) {
				String id = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
				if (id != null) {
					this.sessions.remove(id);
				}
				send(exchange, 200, null, null);
				return;
			}
			if (!exchange.getRequestMethod().equals("POST")) {
				send(exchange, 405, null, null); // no listen stream: nothing to announce
				return;
			}
			JsonNode message;
			try (InputStream body = exchange.getRequestBody()) {
				message = json.readTree(body);
			}
			String method = message.path("method").asString("");
			JsonNode id = message.get("id");
			if (method.equals("initialize")) {
				String session = UUID.randomUUID().toString();
				this.sessions.add(session);
				send(exchange, 200, answer(id, initialized()), session);
				return;
			}
			String session = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
			if (session == null || !this.sessions.contains(session)) {
				// 2025-11-25 transports §Session Management, rule 3: an unknown session is answered 404
				send(exchange, (session == null) ? 400 : 404, error(id, -32001, "Session not found"), null);
				return;
			}
			if (id == null) {
				send(exchange, 202, null, null); // a notification
				return;
			}
			send(exchange, 200, request(id, method, message.path("params")), null);
		}
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
		schema.putObject("properties").putObject("topic").put("type", "string");
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

	private void send(HttpExchange exchange, int status, @Nullable JsonNode body, @Nullable String session)
			throws IOException {
		if (session != null) {
			exchange.getResponseHeaders().add("Mcp-Session-Id", session);
		}
		if (body == null) {
			exchange.sendResponseHeaders(status, -1);
			return;
		}
		byte[] bytes = json.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
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
