package dev.mcpx.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.testsupport.NodePeer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chaos soak: 16 threads call a mix of a read-only ({@code echo}), an
 * idempotent ({@code set_value}) and a destructive ({@code delete_item}) tool of the
 * official TypeScript servers (SDK v1, legacy era with sessions; SDK v2, modern era) while a
 * driver thread, at random intervals, restarts the upstream (legacy: the server forgets
 * every session, with and without aborting open streams; both: the process is killed and
 * started again on the same port) and cuts response streams (before the status line, or
 * after the headers and the priming event).
 * <p>
 * Every call has a unique argument, and the peers append every execution with its arguments
 * to a log file that survives their restarts, so the invariants are checked against the
 * server's own records (docs/architecture.md, "The bound"):
 * <ul>
 * <li>every {@code echo} and {@code set_value} call returns its result, unless the response
 * was lost on both its attempts (the call and its one re-issue: a double fault, say a cut
 * and then a process kill, which one bounded retry cannot survive; counted apart, and more
 * than a fifth of the re-issues is a violation);</li>
 * <li>every {@code delete_item} call either returns its result having run exactly once, or
 * throws a typed {@link McpException} having run at most once;</li>
 * <li>legacy: initializes &le; restarts + 1;</li>
 * <li>no client call takes longer than its request timeout plus a margin;</li>
 * <li>after {@code close()}, no {@code mcpx-*} thread is left and the server sees no open
 * MCP connection of the client once the client is unreachable.</li>
 * </ul>
 * A call that finds the upstream process down (connection refused, so provably not sent) is
 * tried again by the calling thread, as an application would; that is counted as
 * "unavailable" and the logical call must still end as above.
 * <p>
 * Duration per soak: 30 s by default, so the four soaks take about 2 minutes
 * ({@code -Dmcpx.soak.seconds=S}); the long form is {@code -Dmcpx.soak.minutes=N} (each soak
 * runs N minutes). {@code -Dmcpx.soak.seed=L} replays a driver/worker schedule (thread
 * interleaving is not replayable); {@code -Dmcpx.soak.chaos=forget,forgetAndAbort,restart,cut}
 * replaces the weights of the faults the driver picks (forgetting applies to the legacy peer only;
 * the modern era has no sessions, so its weight becomes a cut there).
 * <p>
 * Four soaks run in CI, 30 s each: legacy with forgotten sessions and cut streams, modern
 * with cut streams, and both with process restarts on the same port (legacy also with
 * forgets that abort the open streams).
 */
class ChaosSoakTest {

	private static final int THREADS = 16;

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(5);

	/** Scheduling slack on a loaded two-core CI machine. */
	private static final Duration LATENCY_MARGIN = Duration.ofSeconds(2);

	/** How long a calling thread keeps trying while the upstream process is down. */
	private static final Duration UNAVAILABLE_PATIENCE = Duration.ofSeconds(30);

	/** How long the workers may take to finish after the deadline before the soak calls it a hang. */
	private static final Duration HANG_LIMIT = Duration.ofSeconds(60);

	private static final JsonMapper JSON = JsonMapper.shared();

	@TempDir
	Path tmp;

	/**
	 * What the chaos driver may do, with relative weights: forget every session (legacy),
	 * forget and destroy the open streams (legacy), kill and restart the process on the same
	 * port, arm a cut of the next call of a random tool (before its status line or after its
	 * headers and priming event).
	 */
	record Chaos(int forget, int forgetAndAbort, int processRestart, int cut) {

		int total() {
			return this.forget + this.forgetAndAbort + this.processRestart + this.cut;
		}

		/** The fault at a point of {@code [0, total())}; without sessions, forgetting becomes a cut. */
		String pick(int point, boolean sessions) {
			if (point < this.forget) {
				return sessions ? "forget" : "cut";
			}
			if (point < this.forget + this.forgetAndAbort) {
				return sessions ? "forgetAndAbort" : "cut";
			}
			return (point < this.forget + this.forgetAndAbort + this.processRestart) ? "processRestart" : "cut";
		}

	}

	/** Legacy: the server forgets its sessions (a restart that keeps its port and process) and cuts streams. */
	@Test
	void legacyUpstreamForgettingSessionsAndCuttingStreamsKeepsEveryInvariant() throws Exception {
		soak(ProtocolMode.LEGACY, NodePeer.LEGACY, new Chaos(30, 0, 0, 70));
	}

	/**
	 * Modern: response streams are cut before their status line or after their headers. (The
	 * 2026-07-28 era has no sessions: its restart is the process restart below.)
	 */
	@Test
	void modernUpstreamCuttingStreamsKeepsEveryInvariant() throws Exception {
		soak(ProtocolMode.MODERN, NodePeer.MODERN, new Chaos(0, 0, 0, 100));
	}

	/** Modern: the process is killed and restarted on the same port, and streams are cut. */
	@Test
	void modernUpstreamKilledAndRestartedKeepsEveryInvariant() throws Exception {
		soak(ProtocolMode.MODERN, NodePeer.MODERN, new Chaos(0, 0, 15, 85));
	}

	/**
	 * Legacy with the harsher restarts: the process is killed and restarted on the same
	 * port, or the server forgets its sessions and destroys the open streams' connections.
	 */
	@Test
	void legacyUpstreamKilledAndRestartedKeepsEveryInvariant() throws Exception {
		soak(ProtocolMode.LEGACY, NodePeer.LEGACY, new Chaos(20, 10, 10, 60));
	}

	/** {@code -Dmcpx.soak.chaos=forget,forgetAndAbort,processRestart,cut} replaces every test's mix of faults. */
	static Chaos chaosOverride(Chaos chaos) {
		String mix = System.getProperty("mcpx.soak.chaos");
		if (mix == null || mix.isBlank()) {
			return chaos;
		}
		int[] w = java.util.Arrays.stream(mix.split(",")).map(String::trim).mapToInt(Integer::parseInt).toArray();
		return new Chaos(w[0], w[1], w[2], w[3]);
	}

	static Duration soakDuration() {
		String minutes = System.getProperty("mcpx.soak.minutes");
		if (minutes != null && !minutes.isBlank()) {
			return Duration.ofMillis(Math.round(Double.parseDouble(minutes) * 60_000));
		}
		return Duration.ofSeconds(Long.getLong("mcpx.soak.seconds", 30));
	}

	private void soak(ProtocolMode mode, String script, Chaos defaultChaos) throws Exception {
		Chaos chaos = chaosOverride(defaultChaos);
		long seed = Long.getLong("mcpx.soak.seed", System.nanoTime());
		Duration duration = soakDuration();
		String era = mode.name().toLowerCase(java.util.Locale.ROOT);
		System.out.println("[soak " + era + "] seed " + seed + " (-Dmcpx.soak.seed=" + seed + "), duration " + duration
				+ ", " + chaos);
		Path eventLog = this.tmp.resolve(era + "-events.jsonl");
		Files.createFile(eventLog);
		Set<String> threadsBefore = LeakChecks.mcpxThreads();
		int jvmThreadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		Set<String> allThreadsBefore = LeakChecks.threads("");

		Figures figures = new Figures(era);
		AtomicReference<NodePeer> peer = new AtomicReference<>(
				NodePeer.start(script, 0, Map.of("MCPX_PEER_EVENT_LOG", eventLog.toString())));
		List<String> violations = new ArrayList<>();
		Queue<Call> calls = new ConcurrentLinkedQueue<>();
		try {
			exercise(mode, era, seed, duration, chaos, peer, figures, calls, threadsBefore, violations);
		}
		finally {
			NodePeer last = peer.get();
			// Connections the closed client left: released once its HTTP client is unreachable.
			System.gc();
			figures.openConnectionsAfterGc = awaitOpenConnections(last, Duration.ofSeconds(10));
			figures.jvmThreadsBefore = jvmThreadsBefore;
			figures.jvmThreadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
			Set<String> newThreads = new java.util.TreeSet<>(LeakChecks.threads(""));
			newThreads.removeAll(allThreadsBefore);
			figures.newThreads = newThreads;
			last.close();
		}
		if (figures.openConnectionsAfterGc > 0) {
			violations.add("CONNECTION LEAK: the server still sees " + figures.openConnectionsAfterGc
					+ " open MCP connections of the closed (and collected) client");
		}
		verify(mode, calls, readEventLog(eventLog), figures, violations);
		System.out.println(figures.render(calls));
		if (!violations.isEmpty()) {
			violations.stream().limit(40).forEach((v) -> System.out.println("[soak " + era + "] VIOLATION " + v));
		}
		assertThat(violations).as("invariant violations of the " + era + " soak (seed " + seed + ")").isEmpty();
	}

	/** Runs the soak with one client, closes it and checks its threads; the client is unreachable afterwards. */
	private static void exercise(ProtocolMode mode, String era, long seed, Duration duration, Chaos chaos,
			AtomicReference<NodePeer> peer, Figures figures, Queue<Call> calls, Set<String> threadsBefore,
			List<String> violations) throws Exception {
		McpClient client = McpClient.builder("soak-" + era, URI.create(peer.get().url()))
			.protocol(mode)
			.requestTimeout(REQUEST_TIMEOUT)
			.handshakeTimeout(HANDSHAKE_TIMEOUT)
			.eventListener(figures::onEvent)
			.build();
		long deadline = System.nanoTime() + duration.toNanos();
		AtomicInteger workerNames = new AtomicInteger();
		ExecutorService workers = Executors.newFixedThreadPool(THREADS,
				(r) -> new Thread(r, "soak-" + era + "-worker-" + workerNames.incrementAndGet()));
		for (int t = 0; t < THREADS; t++) {
			int worker = t;
			Random random = new Random(seed + 1 + t);
			workers.submit(() -> work(client, worker, era, deadline, random, calls));
		}
		Thread driver = new Thread(() -> drive(mode, chaos, peer, deadline, new Random(seed), figures),
				"soak-" + era + "-driver");
		AtomicReference<Throwable> driverFailure = new AtomicReference<>();
		driver.setUncaughtExceptionHandler((t, ex) -> driverFailure.set(ex));
		driver.start();
		driver.join(duration.plus(HANG_LIMIT).toMillis());
		workers.shutdown();
		if (!workers.awaitTermination(HANG_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
			violations.add("HANG: workers still running " + HANG_LIMIT.toSeconds() + " s after the deadline:\n"
					+ dump("soak-" + era + "-worker-"));
			workers.shutdownNow();
		}
		if (driverFailure.get() != null) {
			throw new AssertionError("the chaos driver failed", driverFailure.get());
		}
		for (String tool : List.of("echo", "set_value", "delete_item")) {
			peer.get().cut(tool, 0);
		}
		figures.serverCuts += peer.get().counts().path("cuts").asInt();

		// What a well-behaved client is still holding once it is closed.
		Thread.sleep(500);
		long closeStarted = System.nanoTime();
		client.close();
		figures.closeMillis = (System.nanoTime() - closeStarted) / 1_000_000;
		Set<String> leaked = LeakChecks.leakedMcpxThreads(threadsBefore, LeakChecks.THREAD_GRACE);
		if (!leaked.isEmpty()) {
			violations.add("THREAD LEAK: mcpx-* threads alive " + LeakChecks.THREAD_GRACE.toSeconds()
					+ " s after close(): " + leaked);
		}
		figures.openConnectionsAfterClose = awaitOpenConnections(peer.get(), Duration.ofSeconds(3));
	}

	// --- the callers ---------------------------------------------------------------

	private static void work(McpClient client, int worker, String era, long deadline, Random random,
			Queue<Call> calls) {
		long seq = 0;
		while (System.nanoTime() < deadline) {
			int pick = random.nextInt(100);
			String tool = (pick < 40) ? "echo" : (pick < 70) ? "set_value" : "delete_item";
			String key = era.charAt(0) + "-" + worker + "-" + (seq++);
			Map<String, Object> args = switch (tool) {
				case "echo" -> Map.of("text", key);
				case "set_value" -> Map.of("key", key, "value", "v" + seq);
				default -> Map.of("id", key);
			};
			Call call = new Call(tool, key);
			long logicalStart = System.nanoTime();
			while (true) {
				long started = System.nanoTime();
				try {
					call.result = client.callTool(tool, args);
					call.attempt(System.nanoTime() - started, null);
					break;
				}
				catch (Throwable ex) {
					call.attempt(System.nanoTime() - started, ex);
					if (ex instanceof McpException mcp && provablyNotRun(tool, mcp)
							&& System.nanoTime() - logicalStart < UNAVAILABLE_PATIENCE.toNanos()) {
						call.unavailable++;
						sleep(100);
						continue;
					}
					call.failure = ex;
					break;
				}
			}
			calls.add(call);
		}
	}

	/**
	 * Whether the calling thread may try again because the upstream was down: the
	 * connection was refused (nothing sent). For the destructive tool only when that was the
	 * first and only attempt the client made; the server's records check that anyway. For the
	 * others also when an earlier send may have run (a lost response, then a re-issue refused
	 * its connection: an {@link McpStreamLostException} caused by the refusal), since running
	 * them twice is harmless.
	 */
	private static boolean provablyNotRun(String tool, McpException failure) {
		boolean refused = failure instanceof McpTransportException && causedBy(failure, ConnectException.class);
		if (tool.equals("delete_item")) {
			return refused && failure.getSuppressed().length == 0;
		}
		return refused || ((failure instanceof McpRecoveryFailedException || failure instanceof McpStreamLostException)
				&& causedBy(failure, ConnectException.class));
	}

	private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (type.isInstance(t)) {
				return true;
			}
		}
		return false;
	}

	// --- the chaos driver -----------------------------------------------------------

	private static void drive(ProtocolMode mode, Chaos chaos, AtomicReference<NodePeer> peer, long deadline,
			Random random, Figures figures) {
		List<String> tools = List.of("echo", "set_value", "delete_item");
		while (true) {
			sleep(300 + random.nextInt(1200));
			if (System.nanoTime() > deadline) {
				return;
			}
			String fault = chaos.pick(random.nextInt(chaos.total()), mode == ProtocolMode.LEGACY);
			if (fault.equals("forget")) {
				peer.get().forgetSessions(false);
				figures.forgets++;
			}
			else if (fault.equals("forgetAndAbort")) {
				peer.get().forgetSessions(true);
				figures.abortingForgets++;
			}
			else if (fault.equals("processRestart")) {
				figures.serverCuts += peer.get().counts().path("cuts").asInt();
				long started = System.nanoTime();
				peer.set(peer.get().restart());
				figures.processRestarts++;
				figures.maxRestartMillis = Math.max(figures.maxRestartMillis,
						(System.nanoTime() - started) / 1_000_000);
			}
			else {
				boolean afterPriming = random.nextBoolean();
				peer.get().cut(tools.get(random.nextInt(tools.size())), 1, afterPriming);
				if (afterPriming) {
					figures.cutsAfterPriming++;
				}
				else {
					figures.cutsBeforeStatus++;
				}
			}
		}
	}

	// --- the invariants -------------------------------------------------------------

	/** The call lost its response stream, and so did its one re-issue. */
	private static boolean lostTwice(Throwable failure) {
		if (!(failure instanceof McpStreamLostException)) {
			return false;
		}
		for (Throwable earlier : failure.getSuppressed()) {
			if (earlier instanceof McpStreamLostException) {
				return true;
			}
		}
		return false;
	}

	private static void verify(ProtocolMode mode, Queue<Call> calls, List<JsonNode> serverLog, Figures figures,
			List<String> violations) {
		Map<String, Integer> runs = new HashMap<>();
		int initializes = 0;
		for (JsonNode record : serverLog) {
			if ("initialize".equals(record.path("type").asString())) {
				initializes++;
			}
			else if ("execution".equals(record.path("type").asString())) {
				runs.merge(record.path("tool").asString() + "|" + key(record.path("tool").asString(),
						record.path("args")), 1, Integer::sum);
			}
		}
		figures.initializes = initializes;
		Set<String> issued = ConcurrentHashMap.newKeySet();
		long maxMillis = 0;
		for (Call call : calls) {
			String id = call.tool + "|" + call.key;
			issued.add(id);
			int ran = runs.getOrDefault(id, 0);
			figures.executions += ran;
			for (int i = 0; i < call.attemptNanos.size(); i++) {
				long millis = call.attemptNanos.get(i) / 1_000_000;
				maxMillis = Math.max(maxMillis, millis);
				if (millis > REQUEST_TIMEOUT.plus(LATENCY_MARGIN).toMillis()) {
					violations.add("SLOW: " + call + " attempt " + (i + 1) + " took " + millis + " ms (timeout "
							+ REQUEST_TIMEOUT.toMillis() + " ms + margin " + LATENCY_MARGIN.toMillis() + " ms); it "
							+ ((call.attemptFailures.get(i) != null) ? "failed:\n" + LeakChecks.chain(call.attemptFailures.get(i))
									: "succeeded"));
				}
			}
			if (call.result != null) {
				String expected = switch (call.tool) {
					case "echo" -> call.key;
					case "set_value" -> "ok";
					default -> "deleted " + call.key;
				};
				if (call.result.isError() || !expected.equals(call.result.text())) {
					violations.add("WRONG RESULT: " + call + " returned " + call.result);
				}
				if (call.tool.equals("delete_item") && ran != 1) {
					violations.add("DESTRUCTIVE: " + call + " returned its result but ran " + ran + " times");
				}
				else if (ran < 1) {
					violations.add("PHANTOM: " + call + " returned its result but the server has no execution of it");
				}
				continue;
			}
			Throwable failure = call.failure;
			figures.failures.computeIfAbsent(call.tool + " " + failure.getClass().getSimpleName(), (k) -> new LongAdder())
				.increment();
			if (!(failure instanceof McpException)) {
				violations.add("UNTYPED: " + call + " threw " + LeakChecks.chain(failure));
			}
			else if (!call.tool.equals("delete_item")) {
				if (lostTwice(failure)) {
					// The response of the call and of its one re-issue were both lost: a double
					// fault, which one bounded retry cannot survive by design (docs/architecture.md, "The bound").
					figures.doubleFaults++;
				}
				else {
					violations.add("LOST RESULT: " + call + " (ran " + ran + " times) failed:\n"
							+ LeakChecks.chain(failure));
				}
			}
			if (call.tool.equals("delete_item") && ran > 1) {
				violations.add("DESTRUCTIVE: " + call + " ran " + ran + " times and threw "
						+ LeakChecks.chain(failure));
			}
		}
		figures.maxLatencyMillis = maxMillis;
		long reissues = figures.event("McpRequestReissuedEvent");
		if (figures.doubleFaults > Math.max(2, reissues / 5)) {
			// Two faults on one call are rare; many mean re-issues themselves fail.
			violations.add("DOUBLE FAULTS: " + figures.doubleFaults + " calls lost both attempts, against "
					+ reissues + " re-issues (at most max(2, re-issues / 5) expected by chance)");
		}
		runs.keySet().stream().filter((id) -> !issued.contains(id)).limit(5)
			.forEach((id) -> violations.add("UNKNOWN EXECUTION: the server ran " + id + ", which no call issued"));
		if (mode == ProtocolMode.LEGACY) {
			int restarts = figures.forgets + figures.abortingForgets + figures.processRestarts;
			if (initializes > restarts + 1) {
				violations.add("INITIALIZES: the server saw " + initializes + " initialize requests for " + restarts
						+ " restarts (at most restarts + 1 = " + (restarts + 1) + ")");
			}
		}
	}

	private static String key(String tool, JsonNode args) {
		return switch (tool) {
			case "echo" -> args.path("text").asString();
			case "set_value" -> args.path("key").asString();
			default -> args.path("id").asString();
		};
	}

	private static List<JsonNode> readEventLog(Path file) {
		try {
			List<JsonNode> records = new ArrayList<>();
			for (String line : Files.readAllLines(file)) {
				if (!line.isBlank()) {
					records.add(JSON.readTree(line));
				}
			}
			return records;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static int awaitOpenConnections(NodePeer peer, Duration patience) {
		long deadline = System.nanoTime() + patience.toNanos();
		int open = peer.openMcpConnections();
		while (open > 0 && System.nanoTime() < deadline) {
			sleep(200);
			open = peer.openMcpConnections();
		}
		return open;
	}

	private static String dump(String threadPrefix) {
		StringBuilder out = new StringBuilder();
		Thread.getAllStackTraces().forEach((thread, stack) -> {
			if (thread.getName().startsWith(threadPrefix) || thread.getName().startsWith("mcpx-")) {
				out.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
				for (StackTraceElement frame : stack) {
					out.append("\tat ").append(frame).append('\n');
				}
			}
		});
		return out.toString();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** One logical call: its tool, its unique key, how each attempt went, how it ended. */
	private static final class Call {

		final String tool;

		final String key;

		final List<Long> attemptNanos = new ArrayList<>(1);

		final List<Throwable> attemptFailures = new ArrayList<>(1);

		int unavailable;

		CallToolResult result;

		Throwable failure;

		Call(String tool, String key) {
			this.tool = tool;
			this.key = key;
		}

		void attempt(long nanos, Throwable failure) {
			this.attemptNanos.add(nanos);
			this.attemptFailures.add(failure);
		}

		@Override
		public String toString() {
			return this.tool + "(" + this.key + ")";
		}

	}

	/** What happened, for the closing figures. */
	private static final class Figures {

		final String era;

		final Map<String, LongAdder> events = new ConcurrentHashMap<>();

		final Map<String, LongAdder> failures = new ConcurrentHashMap<>();

		final Map<String, LongAdder> reissueCauses = new ConcurrentHashMap<>();

		volatile int forgets;

		volatile int abortingForgets;

		volatile int processRestarts;

		volatile long maxRestartMillis;

		volatile int cutsBeforeStatus;

		volatile int cutsAfterPriming;

		volatile int serverCuts;

		int initializes;

		int executions;

		/** Calls that lost their response on both attempts: lost by design after one re-issue. */
		int doubleFaults;

		long maxLatencyMillis;

		long closeMillis;

		int openConnectionsAfterClose = -1;

		int openConnectionsAfterGc = -1;

		int jvmThreadsBefore;

		int jvmThreadsAfter;

		Set<String> newThreads = Set.of();

		Figures(String era) {
			this.era = era;
		}

		void onEvent(McpEvent event) {
			this.events.computeIfAbsent(event.getClass().getSimpleName(), (k) -> new LongAdder()).increment();
			if (event instanceof dev.mcpx.client.event.McpRequestReissuedEvent reissued) {
				this.reissueCauses.computeIfAbsent(reissued.cause() + " " + reissued.tool(), (k) -> new LongAdder())
					.increment();
			}
		}

		long event(String type) {
			LongAdder adder = this.events.get(type);
			return (adder != null) ? adder.sum() : 0;
		}

		String render(Queue<Call> calls) {
			Map<String, int[]> perTool = new TreeMap<>();
			long unavailable = 0;
			List<Long> latencies = new ArrayList<>();
			for (Call call : calls) {
				int[] counts = perTool.computeIfAbsent(call.tool, (k) -> new int[2]);
				counts[(call.result != null) ? 0 : 1]++;
				unavailable += call.unavailable;
				call.attemptNanos.forEach((n) -> latencies.add(n / 1_000_000));
			}
			latencies.sort(Comparator.naturalOrder());
			long p99 = latencies.isEmpty() ? 0 : latencies.get((int) Math.min(latencies.size() - 1,
					Math.ceil(latencies.size() * 0.99) - 1));
			StringBuilder out = new StringBuilder();
			String p = "[soak " + this.era + "] ";
			out.append(p).append("calls ").append(calls.size()).append(" (attempts ").append(latencies.size())
				.append("); per tool [results, typed failures]: ");
			perTool.forEach((tool, c) -> out.append(tool).append(" [").append(c[0]).append(", ").append(c[1]).append("] "));
			out.append('\n');
			out.append(p).append("server executions ").append(this.executions).append(", initializes ")
				.append(this.initializes).append('\n');
			out.append(p).append("restarts ").append(this.forgets + this.abortingForgets + this.processRestarts)
				.append(" (forget ").append(this.forgets).append(", forget+abort ").append(this.abortingForgets)
				.append(", process ").append(this.processRestarts).append(", slowest process restart ")
				.append(this.maxRestartMillis).append(" ms)\n");
			out.append(p).append("cuts armed ").append(this.cutsBeforeStatus + this.cutsAfterPriming)
				.append(" (before status ").append(this.cutsBeforeStatus).append(", after priming ")
				.append(this.cutsAfterPriming).append("), performed by the server ").append(this.serverCuts)
				.append("; calls lost on both attempts ").append(this.doubleFaults).append('\n');
			out.append(p).append("recoveries ").append(event("McpSessionRecoveredEvent")).append(", expiries ")
				.append(event("McpSessionExpiredEvent")).append(", failed recoveries ")
				.append(event("McpRecoveryFailedEvent")).append(", reissues ").append(event("McpRequestReissuedEvent"))
				.append(", refusals ").append(event("McpReissueRefusedEvent")).append(", resumed streams ")
				.append(event("McpStreamResumedEvent")).append('\n');
			out.append(p).append("reissues by cause/tool ").append(new TreeMap<>(this.reissueCauses)).append('\n');
			out.append(p).append("typed failures ").append(new TreeMap<>(this.failures)).append(", unavailable retries ")
				.append(unavailable).append('\n');
			out.append(p).append("latency max ").append(this.maxLatencyMillis).append(" ms, p99 ").append(p99)
				.append(" ms (bound ").append(REQUEST_TIMEOUT.plus(LATENCY_MARGIN).toMillis()).append(" ms)\n");
			out.append(p).append("close ").append(this.closeMillis).append(" ms; open MCP connections after close ")
				.append(this.openConnectionsAfterClose).append(", after GC ").append(this.openConnectionsAfterGc)
				.append("; JVM threads ").append(this.jvmThreadsBefore).append(" -> ").append(this.jvmThreadsAfter)
				.append(" (new: ").append(this.newThreads).append(")\n");
			return out.toString();
		}

	}

}
