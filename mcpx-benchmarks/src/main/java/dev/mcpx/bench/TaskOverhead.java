package dev.mcpx.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.recovery.RecoveryPolicy;

/**
 * What a task-backed tool call costs against the same tool answered directly (docs/architecture.md,
 * "Tasks"), and what 1,000 tasks in flight hold. One JVM, an in-process 2026-07-28 upstream with the
 * tasks extension (the JDK's {@link HttpServer}): a client that declares the extension gets a task
 * (then {@code tasks/get} answers it completed, its result inline), one that does not
 * ({@link RecoveryPolicy#taskExtension()} off) gets the result at once. Prints one line of JSON.
 * <pre>
 * java -cp ... dev.mcpx.bench.TaskOverhead [rounds] [calls per round] [tasks in flight]
 * </pre>
 * Latency and the calling thread's CPU per call, in interleaved rounds (direct, task, then the
 * reverse), each ratio taken within a round and reported as the median; a task-backed call waits
 * at least the client's poll floor ({@code TaskFollower.MIN_POLL_INTERVAL}, 100 ms) for its first
 * poll, which is most of its latency. CPU per poll: what a task-backed call costs the caller
 * beyond a direct one, divided by the polls it made. In flight: tasks started and followed with
 * {@code McpTask.awaitAsync}, held working by the upstream until released, with the threads and
 * the heap they add.
 */
public final class TaskOverhead {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final String TASKS = "io.modelcontextprotocol/tasks";

	private static final String UPSTREAM_THREAD = "upstream-tasks";

	private final HttpServer server;

	private final Map<String, Boolean> held = new ConcurrentHashMap<>();

	private final AtomicLong taskIds = new AtomicLong();

	private final AtomicLong polls = new AtomicLong();

	private volatile boolean released;

	private TaskOverhead() throws IOException {
		// as FixedUpstream: without it, delayed ACKs hold each small answer ~40 ms
		System.setProperty("sun.net.httpserver.nodelay", "true");
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		ExecutorService executor = Executors.newFixedThreadPool(8, (runnable) -> {
			Thread thread = new Thread(runnable, UPSTREAM_THREAD);
			thread.setDaemon(true);
			return thread;
		});
		this.server.setExecutor(executor);
		this.server.createContext("/mcp", this::handle);
		this.server.start();
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 5;
		int calls = (args.length > 1) ? Integer.parseInt(args[1]) : 20;
		int inFlight = (args.length > 2) ? Integer.parseInt(args[2]) : 1000;
		TaskOverhead upstream = new TaskOverhead();
		URI url = URI.create("http://127.0.0.1:" + upstream.server.getAddress().getPort() + "/mcp");
		try (McpClient direct = McpClient.builder("direct", url).protocol(ProtocolMode.MODERN)
			.recoveryPolicy(RecoveryPolicy.custom().taskExtension(false).build())
			.build(); McpClient tasks = McpClient.builder("tasks", url).protocol(ProtocolMode.MODERN).build()) {
			ObjectNode out = JSON.createObjectNode();
			upstream.calls(direct, tasks, rounds, calls, out);
			upstream.inFlight(tasks, inFlight, out);
			System.out.println(JSON.writeValueAsString(out));
		}
		finally {
			upstream.server.stop(0);
		}
	}

	/** Interleaved rounds of direct and task-backed calls: p50 latency and caller CPU per call. */
	private void calls(McpClient direct, McpClient tasks, int rounds, int calls, ObjectNode out) {
		// warm-up: the direct calls are cheap, the task-backed ones wait the poll floor
		measure(direct, 10 * calls);
		measure(tasks, calls);
		List<Double> latencyRatios = new ArrayList<>();
		List<Double> overheads = new ArrayList<>();
		List<Double> cpuPerPoll = new ArrayList<>();
		List<Double> directP50 = new ArrayList<>();
		List<Double> taskP50 = new ArrayList<>();
		List<Double> directCpu = new ArrayList<>();
		List<Double> taskCpu = new ArrayList<>();
		double pollsPerCall = 0;
		for (int round = 0; round < rounds; round++) {
			boolean directFirst = round % 2 == 0;
			Measured first = measure(directFirst ? direct : tasks, calls);
			Measured second = measure(directFirst ? tasks : direct, calls);
			Measured d = directFirst ? first : second;
			Measured t = directFirst ? second : first;
			pollsPerCall = (double) t.polls() / calls;
			directP50.add(d.p50Micros());
			taskP50.add(t.p50Micros());
			directCpu.add(d.cpuMicrosPerCall());
			taskCpu.add(t.cpuMicrosPerCall());
			latencyRatios.add(t.p50Micros() / d.p50Micros());
			overheads.add((t.p50Micros() - d.p50Micros()) / 1000);
			cpuPerPoll.add((t.cpuMicrosPerCall() - d.cpuMicrosPerCall()) / Math.max(pollsPerCall, 1));
		}
		out.put("direct_p50_us", median(directP50));
		out.put("task_p50_us", median(taskP50));
		out.put("task_overhead_p50_ms", median(overheads));
		out.put("ratio_p50_task_vs_direct", median(latencyRatios));
		out.set("ratio_p50_task_vs_direct_per_round", JSON.valueToTree(latencyRatios));
		out.put("direct_caller_cpu_us_per_call", median(directCpu));
		out.put("task_caller_cpu_us_per_call", median(taskCpu));
		out.put("polls_per_task_call", pollsPerCall);
		out.put("caller_cpu_us_per_poll", median(cpuPerPoll));
	}

	private Measured measure(McpClient client, int calls) {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		long[] latencies = new long[calls];
		long pollsBefore = this.polls.get();
		long cpuBefore = threads.getCurrentThreadCpuTime();
		for (int i = 0; i < calls; i++) {
			long started = System.nanoTime();
			CallToolResult result = client.callTool("work", Map.of("n", i));
			latencies[i] = System.nanoTime() - started;
			if (!"done".equals(result.text())) {
				throw new IllegalStateException("unexpected result " + result);
			}
		}
		long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
		Arrays.sort(latencies);
		return new Measured(latencies[calls / 2] / 1000.0, cpu / 1000.0 / calls, this.polls.get() - pollsBefore);
	}

	/** Tasks in flight, each followed with awaitAsync: the threads and heap they add. */
	private void inFlight(McpClient tasks, int count, ObjectNode out) throws Exception {
		this.released = false;
		tasks.listTools();
		long threadsBefore = clientThreads();
		long heapBefore = usedHeap();
		List<McpTask> started = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			started.add(tasks.startTool("work", Map.of("n", i, "hold", true)));
		}
		List<CompletableFuture<CallToolResult>> outcomes = new ArrayList<>();
		for (McpTask task : started) {
			outcomes.add(task.awaitAsync(Duration.ofMinutes(10)));
		}
		long pollsBefore = this.polls.get();
		long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
		while (this.polls.get() - pollsBefore < count && System.nanoTime() < until) {
			Thread.sleep(50);
		}
		long threadsDuring = clientThreads();
		long pollingThreads = Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.getName().startsWith("mcpx-task-poll-"))
			.count();
		long heapDuring = usedHeap();
		long pending = outcomes.stream().filter((outcome) -> !outcome.isDone()).count();
		this.released = true;
		CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
		out.put("in_flight", count);
		out.put("in_flight_pending_when_counted", pending);
		out.put("in_flight_client_threads_added", threadsDuring - threadsBefore);
		out.put("in_flight_polling_threads", pollingThreads);
		out.put("in_flight_heap_mb_added", (heapDuring - heapBefore) / (1024.0 * 1024.0));
		out.put("in_flight_heap_kb_per_task", (heapDuring - heapBefore) / 1024.0 / count);
	}

	/** Live threads but the upstream's own, which serves the polls in this same JVM. */
	private static long clientThreads() {
		return Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> !thread.getName().startsWith(UPSTREAM_THREAD))
			.count();
	}

	private static long usedHeap() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		Runtime runtime = Runtime.getRuntime();
		return runtime.totalMemory() - runtime.freeMemory();
	}

	private static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		sorted.sort(null);
		return sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() / 2);
	}

	/** The upstream: 2026-07-28, stateless, the tasks extension for whoever declares it. */
	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (!"POST".equals(exchange.getRequestMethod())) {
				exchange.sendResponseHeaders(405, -1);
				return;
			}
			JsonNode request;
			try (InputStream body = exchange.getRequestBody()) {
				request = JSON.readTree(body.readAllBytes());
			}
			JsonNode id = request.get("id");
			if (id == null) {
				exchange.sendResponseHeaders(202, -1);
				return;
			}
			ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0").set("id", id);
			response.set("result", result(request.path("method").asString(""), request.path("params")));
			byte[] bytes = JSON.writeValueAsBytes(response);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, bytes.length);
			try (OutputStream body = exchange.getResponseBody()) {
				body.write(bytes);
			}
		}
	}

	private JsonNode result(String method, JsonNode params) {
		ObjectNode result = JSON.createObjectNode().put("resultType", "complete");
		switch (method) {
			case "server/discover" -> {
				result.putArray("supportedVersions").add("2026-07-28");
				ObjectNode capabilities = result.putObject("capabilities");
				capabilities.putObject("tools");
				capabilities.putObject("extensions").putObject(TASKS);
			}
			case "tools/list" -> result.putArray("tools").addObject().put("name", "work")
				.putObject("inputSchema").put("type", "object");
			case "tools/call" -> {
				if (!params.at("/_meta/io.modelcontextprotocol~1clientCapabilities/extensions").has(TASKS)) {
					return done(result);
				}
				String taskId = "task-" + this.taskIds.incrementAndGet();
				this.held.put(taskId, params.at("/arguments/hold").asBoolean(false));
				return task(result.put("resultType", "task"), taskId, "working");
			}
			case "tasks/get" -> {
				this.polls.incrementAndGet();
				String taskId = params.path("taskId").asString("");
				boolean working = this.held.getOrDefault(taskId, false) && !this.released;
				task(result, taskId, working ? "working" : "completed");
				if (!working) {
					done(result.putObject("result"));
				}
			}
			default -> result.put("unknown", method);
		}
		return result;
	}

	private static ObjectNode task(ObjectNode result, String taskId, String status) {
		return result.put("taskId", taskId)
			.put("status", status)
			.put("createdAt", "2026-01-01T00:00:00Z")
			.put("lastUpdatedAt", "2026-01-01T00:00:00Z")
			.put("ttlMs", 600_000)
			.put("pollIntervalMs", 0);
	}

	private static ObjectNode done(ObjectNode result) {
		result.putArray("content").addObject().put("type", "text").put("text", "done");
		return result;
	}

	private record Measured(double p50Micros, double cpuMicrosPerCall, long polls) {
	}

}
