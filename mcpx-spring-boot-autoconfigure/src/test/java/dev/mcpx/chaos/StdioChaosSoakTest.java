package dev.mcpx.chaos;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.model.ProcessStatus;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.testsupport.StdioPeer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stdio chaos soak: 16 threads call a read-only ({@code read_value}, {@code slow_read}),
 * an idempotent ({@code set_value}) and a destructive ({@code add_item}, {@code slow_add})
 * tool of the TypeScript SDK stdio peer while a driver thread, at random moments after each
 * new process has answered, kills the server process with SIGKILL (2026-07-28
 * basic/transports/stdio §Unexpected Termination). Every call has a unique argument and
 * every process appends its executions to one log file, so the invariants are checked
 * against what the servers ran:
 * <ul>
 * <li>every read-only and idempotent call returns its result;</li>
 * <li>no destructive call runs twice, and one reported successful ran exactly once;</li>
 * <li>restarts are at most kills + 1, and each restart was one recovery for all callers;</li>
 * <li>no caller waits past its bound (one attempt, one restart, one re-issue);</li>
 * <li>after close no server process is left.</li>
 * </ul>
 * Its length is {@code mcpx.soak.stdio.seconds} (default 20).
 */
class StdioChaosSoakTest {

	private static final Log logger = LogFactory.getLog(StdioChaosSoakTest.class);

	private static final int THREADS = 16;

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

	private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(20);

	private static final Duration MAX_BACKOFF = Duration.ofMillis(200);

	@TempDir
	Path dir;

	@Test
	void killedServerProcessesAreRestartedOnceAndNoDestructiveCallRunsTwice() throws Exception {
		Duration length = Duration.ofSeconds(Long.getLong("mcpx.soak.stdio.seconds", 20));
		Path log = this.dir.resolve("peer.log");
		List<McpEvent> events = new CopyOnWriteArrayList<>();
		ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
		AtomicInteger kills = new AtomicInteger();
		ProcessRestartPolicy restart = ProcessRestartPolicy.custom()
			.initialBackoff(Duration.ofMillis(10))
			.maxBackoff(MAX_BACKOFF)
			.maxRestarts(10_000)
			.build();
		McpClient client = McpClient.stdio("chaos", StdioPeer.command(log))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(REQUEST_TIMEOUT)
			.handshakeTimeout(HANDSHAKE_TIMEOUT)
			.restartPolicy(restart)
			.eventListener(events::add)
			.build();
		long deadline;
		try {
			client.listTools();
			deadline = System.nanoTime() + length.toNanos();
			ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
			try {
				List<Future<?>> workers = new ArrayList<>();
				AtomicLong sequence = new AtomicLong();
				for (int t = 0; t < THREADS; t++) {
					workers.add(pool.submit(() -> {
						while (System.nanoTime() < deadline) {
							calls.add(call(client, "a" + sequence.incrementAndGet()));
						}
					}));
				}
				Future<?> driver = pool.submit(() -> drive(client, deadline, kills));
				for (Future<?> worker : workers) {
					worker.get(length.toSeconds() + 120, TimeUnit.SECONDS);
				}
				driver.get(60, TimeUnit.SECONDS);
			}
			finally {
				pool.shutdownNow();
			}
		}
		finally {
			client.close();
		}
		check(log, calls, events, kills.get());
	}

	/**
	 * Kills the running server at a random moment once its generation is established (its
	 * handshake done), until the end: a kill during a handshake is a second fault that no
	 * recovery can hide, and is not what this soak measures.
	 */
	private static void drive(McpClient client, long deadline, AtomicInteger kills) {
		long killedGeneration = 0;
		while (System.nanoTime() < deadline) {
			long generation = client.status().sessionGeneration();
			ProcessStatus process = client.status().process();
			Long pid = (process != null) ? process.pid() : null;
			if (pid == null || generation <= killedGeneration) {
				sleep(20);
				continue;
			}
			sleep(ThreadLocalRandom.current().nextLong(300, 900));
			if (System.nanoTime() >= deadline) {
				return;
			}
			StdioPeer.kill9(pid);
			killedGeneration = generation;
			kills.incrementAndGet();
		}
	}

	private static Call call(McpClient client, String arg) {
		int pick = ThreadLocalRandom.current().nextInt(5);
		String tool = switch (pick) {
			case 0 -> "read_value";
			case 1 -> "slow_read";
			case 2 -> "set_value";
			case 3 -> "add_item";
			default -> "slow_add";
		};
		Map<String, Object> args = new HashMap<>();
		args.put(tool.endsWith("_add") || tool.equals("add_item") ? "item" : "key", arg);
		if (tool.startsWith("slow_")) {
			args.put("ms", ThreadLocalRandom.current().nextInt(10, 60));
		}
		long started = System.nanoTime();
		try {
			String text = client.callTool(tool, args).text();
			return new Call(tool, arg, text, null, Duration.ofNanos(System.nanoTime() - started));
		}
		catch (McpException ex) {
			return new Call(tool, arg, null, ex, Duration.ofNanos(System.nanoTime() - started));
		}
	}

	private static void check(Path log, ConcurrentLinkedQueue<Call> calls, List<McpEvent> events, int kills) {
		Map<String, Integer> executions = new HashMap<>();
		for (JsonNode entry : StdioPeer.entries(log)) {
			if (entry.path("type").asString("").equals("execution")) {
				JsonNode args = entry.path("args");
				String arg = args.has("item") ? args.path("item").asString() : args.path("key").asString();
				executions.merge(entry.path("tool").asString() + ":" + arg, 1, Integer::sum);
			}
		}
		long starts = StdioPeer.starts(log);
		long restarts = starts - 1;
		long recovered = events.stream().filter(McpSessionRecoveredEvent.class::isInstance).count();
		Duration bound = REQUEST_TIMEOUT.multipliedBy(2).plus(HANDSHAKE_TIMEOUT).plus(MAX_BACKOFF);
		List<String> violations = new ArrayList<>();
		int lostDestructive = 0;
		Duration longest = Duration.ZERO;
		for (Call call : calls) {
			longest = (call.took.compareTo(longest) > 0) ? call.took : longest;
			int ran = executions.getOrDefault(call.tool + ":" + call.arg, 0);
			boolean destructive = call.tool.equals("add_item") || call.tool.equals("slow_add");
			if (call.took.compareTo(bound) > 0) {
				violations.add(call + " waited past its bound of " + bound);
			}
			if (!destructive && call.failure != null) {
				violations.add(call + " (read-only or idempotent) failed: " + call.failure);
			}
			if (destructive && ran > 1) {
				violations.add(call + " ran " + ran + " times");
			}
			if (destructive && call.failure == null && ran != 1) {
				violations.add(call + " returned but ran " + ran + " times");
			}
			if (destructive && call.failure != null) {
				lostDestructive++;
				if (!(call.failure instanceof McpStreamLostException)) {
					violations.add(call + " failed with " + call.failure);
				}
			}
		}
		if (restarts > kills + 1) {
			violations.add(restarts + " restarts for " + kills + " kills");
		}
		if (recovered != restarts) {
			violations.add(recovered + " recoveries reported for " + restarts + " restarts");
		}
		for (long pid : StdioPeer.pids(log)) {
			if (!StdioPeer.await(Duration.ofSeconds(10), () -> !StdioPeer.alive(pid))) {
				violations.add("server process " + pid + " is alive after close");
			}
		}
		logger.info("stdio soak: " + calls.size() + " calls, " + kills + " kills, " + restarts + " restarts, "
				+ lostDestructive + " destructive calls refused after a kill, longest call " + longest.toMillis()
				+ " ms");
		assertThat(calls).hasSizeGreaterThan(THREADS);
		assertThat(kills).isPositive();
		assertThat(violations).isEmpty();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private record Call(String tool, String arg, String text, McpException failure, Duration took) {

		@Override
		public String toString() {
			return this.tool + "(" + this.arg + ")";
		}

	}

}
