package dev.mcpx.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * What JMH does not measure well, in one plain JVM: client-side allocation and threads
 * started per call, recovery after a session expiry, the {@code initialize} count of a
 * storm of concurrent callers hitting one expiry, and the retained heap of idle clients.
 * Writes one JSON object.
 * <pre>
 * java -cp ... dev.mcpx.bench.Measurements [--quick] out.json
 * </pre>
 */
public final class Measurements {

	private static final String[] CONTENDERS = { "mcpx", "sdk", "raw" };

	/** Recovery's iterations are reported in this many consecutive rounds, as the call ratios are. */
	private static final int RECOVERY_ROUNDS = 5;

	private final boolean quick;

	/** Checks the harness only: every count a tenth of quick mode's. */
	private boolean smoke;

	private final Map<String, Object> out = new LinkedHashMap<>();

	private final long started = System.nanoTime();

	private Measurements(boolean quick) {
		this.quick = quick;
	}

	public static void main(String[] args) throws Exception {
		boolean quick = Arrays.asList(args).contains("--quick");
		String file = Arrays.stream(args).filter((a) -> !a.startsWith("--")).findFirst().orElse("measurements.json");
		Measurements measurements = new Measurements(quick);
		measurements.smoke = Arrays.asList(args).contains("--smoke");
		measurements.run();
		Files.writeString(Path.of(file), Json.write(measurements.out) + "\n");
		System.out.println("wrote " + file);
		System.exit(0); // HttpClient selector threads of the idle clients are not daemons everywhere
	}

	private void run() throws Exception {
		this.out.put("mode", this.quick ? "quick" : "full");
		if (!this.quick) {
			// the rounds (Rounds, Worker) measure it per round in every mode; once more here in full mode
			Map<String, Object> perCall = new LinkedHashMap<>();
			try (Upstream fixed = FixedUpstream.start()) {
				for (String kind : CONTENDERS) {
					perCall.put(kind, clientSideCost(fixed, kind));
				}
			}
			this.out.put("client_side_per_call_fixed", perCall);
		}
		Map<String, Object> recovery = new LinkedHashMap<>();
		Map<String, Object> storms = new LinkedHashMap<>();
		for (String upstreamKind : new String[] { "fixed", "sdk" }) {
			try (Upstream upstream = Upstream.start(upstreamKind)) {
				recovery.put(upstreamKind + "/mcpx", recoveryMcpx(upstream));
				recovery.put(upstreamKind + "/server handshake", serverHandshake(upstream));
				recovery.put(upstreamKind + "/sdk", recoverySdk(upstream));
				storms.put(upstreamKind + "/mcpx", storm(upstream, "mcpx"));
				storms.put(upstreamKind + "/sdk", storm(upstream, "sdk"));
			}
		}
		this.out.put("recovery", recovery);
		this.out.put("storm", storms);
		if (!this.quick) {
			// quick mode leaves it to ManyUpstreams, which measures an application's upstreams
			this.out.put("idle_heap", idleHeap());
		}
	}

	// --- client-side allocation and threads per call ---------------------------------

	/**
	 * Bytes allocated per call by every thread that is not the upstream's (the caller, the
	 * HTTP client's selector and workers, any thread the client starts), and threads
	 * started per call, measured by the JVM's per-thread counters.
	 */
	private Map<String, Object> clientSideCost(Upstream upstream, String kind) {
		int warmup = n(this.quick ? 8_000 : 50_000);
		int calls = n(this.quick ? 8_000 : 50_000);
		com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
			.getThreadMXBean();
		try (Contender contender = Contender.open(kind, upstream.url())) {
			for (int i = 0; i < warmup; i++) {
				contender.call();
			}
			Map<Long, Long> before = allocatedByThread(threads, upstream);
			long startedBefore = threads.getTotalStartedThreadCount();
			long t0 = System.nanoTime();
			for (int i = 0; i < calls; i++) {
				contender.call();
			}
			long elapsed = System.nanoTime() - t0;
			long startedAfter = threads.getTotalStartedThreadCount();
			Map<Long, Long> after = allocatedByThread(threads, upstream);
			long bytes = 0;
			for (Map.Entry<Long, Long> entry : after.entrySet()) {
				bytes += entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
			}
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("alloc_bytes_per_call", bytes / calls);
			result.put("threads_started_per_call", round((double) (startedAfter - startedBefore) / calls, 3));
			result.put("mean_call_us", round(elapsed / 1000.0 / calls, 1));
			say(String.format(Locale.ROOT, "client side, %s: %d B/call, %.3f threads started/call, %.1f us/call",
					kind, bytes / calls, (double) (startedAfter - startedBefore) / calls, elapsed / 1000.0 / calls));
			return result;
		}
	}

	/** Allocated bytes of each live thread that does not serve the upstream (or measure). */
	private static Map<Long, Long> allocatedByThread(com.sun.management.ThreadMXBean threads, Upstream upstream) {
		long[] ids = threads.getAllThreadIds();
		ThreadInfo[] infos = threads.getThreadInfo(ids);
		long[] allocated = threads.getThreadAllocatedBytes(ids);
		Map<Long, Long> result = new HashMap<>();
		for (int i = 0; i < ids.length; i++) {
			if (infos[i] == null || allocated[i] < 0 || isServer(infos[i].getThreadName(), upstream)) {
				continue;
			}
			result.put(ids[i], allocated[i]);
		}
		return result;
	}

	private static boolean isServer(String name, Upstream upstream) {
		for (String prefix : upstream.threadNamePrefixes()) {
			if (name.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	// --- recovery ------------------------------------------------------------------

	/**
	 * Time from a session expiry to the first successful result, against a normal call:
	 * each iteration forgets every session, then times the next call (which meets the 404,
	 * re-initializes, and is re-sent); normal calls are timed in between. In the same loop,
	 * the physical floor of such a recovery: the raw contender's four exchanges back to back
	 * (the call answered 404, initialize, notifications/initialized, the call again), timed
	 * as one right after a forget of its own.
	 */
	private Map<String, Object> recoveryMcpx(Upstream upstream) {
		boolean fixed = upstream instanceof FixedUpstream;
		int iterations = n(this.quick ? 300 : 1000);
		int normalPerIteration = 5;
		// The recovery path must be compiled like the call path, or the multiple measures the
		// JIT: the floor runs the JDK client's code, hot from every call, while the code only a
		// recovery runs (the refusal, the handshake's own steps, the announcement) reaches the
		// optimising compiler only after some ten thousand runs. After 2,000, one build measured
		// 1.37-1.42x; after 12,000, 1.21-1.24x (docs/performance-history.md, "Round four"). The SDK
		// server's recoveries cost about five times more: fewer there.
		int warmRecoveries = n(this.quick ? (fixed ? 12_000 : 4_000) : 15_000);
		try (Contender mcpx = Contender.open("mcpx", upstream.url());
				Contender.Raw raw = (Contender.Raw) Contender.open("raw", upstream.url())) {
			for (int i = 0; i < n(this.quick ? 3000 : 20000); i++) {
				mcpx.call();
				raw.call();
			}
			for (int i = 0; i < warmRecoveries; i++) {
				upstream.forgetSessions();
				recoveryFloor(raw);
				upstream.forgetSessions();
				mcpx.call();
			}
			long[] normal = new long[iterations * normalPerIteration];
			long[] recovery = new long[iterations];
			long[] floor = new long[iterations];
			int initializesBefore = upstream.initializeCount();
			long requestsInRecoveries = 0;
			for (int i = 0; i < iterations; i++) {
				for (int j = 0; j < normalPerIteration; j++) {
					long t0 = System.nanoTime();
					mcpx.call();
					normal[i * normalPerIteration + j] = System.nanoTime() - t0;
				}
				// Each right after a forget of its own, so both meet the same fresh upstream. The
				// second forget also ends the raw session, which the next floor needs dead anyway.
				upstream.forgetSessions();
				floor[i] = recoveryFloor(raw);
				upstream.forgetSessions();
				long requestsBefore = requests(upstream);
				long t0 = System.nanoTime();
				mcpx.call(); // must succeed: an exception ends the measurement
				recovery[i] = System.nanoTime() - t0;
				requestsInRecoveries += requests(upstream) - requestsBefore;
			}
			// every floor performs exactly one initialize of its own
			int initializes = upstream.initializeCount() - initializesBefore - iterations;
			Map<String, Object> result = new LinkedHashMap<>();
			double normalP50 = percentile(normal, 50) / 1000.0;
			double recoveryP50 = percentile(recovery, 50) / 1000.0;
			double floorP50 = percentile(floor, 50) / 1000.0;
			result.put("iterations", iterations);
			result.put("warm_recoveries", warmRecoveries);
			result.put("normal_call_p50_us", round(normalP50, 1));
			result.put("recovery_p50_us", round(recoveryP50, 1));
			result.put("recovery_p90_us", round(percentile(recovery, 90) / 1000.0, 1));
			// a p50 that still falls from the first half of the iterations to the second: not warm
			result.put("recovery_p50_halves_us", List.of(round(halfP50(recovery, 0) / 1000.0, 1),
					round(halfP50(recovery, 1) / 1000.0, 1)));
			result.put("recovery_multiple_of_call", round(recoveryP50 / normalP50, 2));
			result.put("recovery_mean_multiple_of_mean_call", round(mean(recovery) / mean(normal), 2));
			result.put("recovery_floor_p50_us", round(floorP50, 1));
			result.put("recovery_floor_p90_us", round(percentile(floor, 90) / 1000.0, 1));
			result.put("recovery_floor_multiple_of_call", round(floorP50 / normalP50, 2));
			result.put("recovery_multiple_of_floor", round(recoveryP50 / floorP50, 2));
			// the same ratio in consecutive rounds of the iterations: its spread over time
			List<Double> perRound = new ArrayList<>();
			int perRoundIterations = iterations / RECOVERY_ROUNDS;
			for (int r = 0; r < RECOVERY_ROUNDS; r++) {
				int from = r * perRoundIterations;
				int to = (r == RECOVERY_ROUNDS - 1) ? iterations : from + perRoundIterations;
				perRound.add(round((double) percentile(Arrays.copyOfRange(recovery, from, to), 50)
						/ percentile(Arrays.copyOfRange(floor, from, to), 50), 3));
			}
			result.put("recovery_multiple_of_floor_per_round", perRound);
			result.put("initialize_per_expiry", round((double) initializes / iterations, 3));
			if (fixed) {
				// the failed call, initialize, notifications/initialized, the call again: 4
				result.put("http_requests_per_recovery", round((double) requestsInRecoveries / iterations, 2));
			}
			result.put("failed_calls", 0);
			say(String.format(Locale.ROOT,
					"recovery, mcpx on %s: %.1f us vs %.1f us a call = %.2fx (halves %s); floor %.1f us = %.2fx",
					upstream.getClass().getSimpleName(), recoveryP50, normalP50, recoveryP50 / normalP50,
					result.get("recovery_p50_halves_us"), floorP50, floorP50 / normalP50));
			return result;
		}
	}

	/**
	 * The four exchanges of a legacy recovery on the raw contender, timed as one: the call on
	 * the forgotten session, the handshake, the call again.
	 * @return nanoseconds
	 */
	private static long recoveryFloor(Contender.Raw raw) {
		long t0 = System.nanoTime();
		int status = raw.callStatus();
		raw.handshake();
		raw.call();
		long elapsed = System.nanoTime() - t0;
		if (status == 200) {
			throw new IllegalStateException("the upstream answered a forgotten session's call 200");
		}
		return elapsed;
	}

	/** The p50 of the first (0) or second (1) half of the values, in their order. */
	private static long halfP50(long[] values, int half) {
		int mid = values.length / 2;
		return percentile((half == 0) ? Arrays.copyOfRange(values, 0, mid)
				: Arrays.copyOfRange(values, mid, values.length), 50);
	}

	private static long requests(Upstream upstream) {
		return (upstream instanceof FixedUpstream fixed) ? fixed.requestCount() : 0;
	}

	/**
	 * The upstream's share of a recovery: a raw handshake (initialize, initialized) and a
	 * raw call, right after the sessions were forgotten and in steady state. A server that
	 * is slow on its first requests after a restart (the SDK server's new incarnation)
	 * makes every client's recovery slower, whatever the client does.
	 */
	private Map<String, Object> serverHandshake(Upstream upstream) {
		int iterations = n(this.quick ? 60 : 300);
		try (Contender contender = Contender.open("raw", upstream.url())) {
			Contender.Raw raw = (Contender.Raw) contender;
			for (int i = 0; i < 2000; i++) {
				raw.call();
			}
			for (int i = 0; i < n(this.quick ? 100 : 500); i++) {
				raw.handshake();
			}
			long[] call = new long[iterations];
			long[] steady = new long[iterations];
			long[] afterForget = new long[iterations];
			for (int i = 0; i < iterations; i++) {
				long t0 = System.nanoTime();
				raw.call();
				call[i] = System.nanoTime() - t0;
				t0 = System.nanoTime();
				raw.handshake();
				steady[i] = System.nanoTime() - t0;
				upstream.forgetSessions();
				t0 = System.nanoTime();
				raw.handshake();
				afterForget[i] = System.nanoTime() - t0;
			}
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("raw_call_p50_us", round(percentile(call, 50) / 1000.0, 1));
			result.put("handshake_steady_p50_us", round(percentile(steady, 50) / 1000.0, 1));
			result.put("handshake_after_forget_p50_us", round(percentile(afterForget, 50) / 1000.0, 1));
			say("server handshake on " + upstream.getClass().getSimpleName() + ": " + result);
			return result;
		}
	}

	/**
	 * The official SDK client after an expiry: whether the first call fails, and the time
	 * from the expiry to the first successful result when the caller tries again at once.
	 */
	private Map<String, Object> recoverySdk(Upstream upstream) {
		int iterations = n(this.quick ? 60 : 300);
		try (Contender contender = Contender.open("sdk", upstream.url())) {
			for (int i = 0; i < n(this.quick ? 1000 : 10000); i++) {
				contender.call();
			}
			long[] normal = new long[iterations];
			long[] recovery = new long[iterations];
			int firstCallFailed = 0;
			int maxAttempts = 0;
			String failure = null;
			for (int i = 0; i < iterations; i++) {
				long n0 = System.nanoTime();
				contender.call();
				normal[i] = System.nanoTime() - n0;
				upstream.forgetSessions();
				long t0 = System.nanoTime();
				int attempts = 0;
				while (true) {
					attempts++;
					try {
						contender.call();
						break;
					}
					catch (RuntimeException ex) {
						if (failure == null) {
							failure = ex.getClass().getName() + ": " + ex.getMessage();
						}
						if (attempts >= 10) {
							throw ex;
						}
					}
				}
				recovery[i] = System.nanoTime() - t0;
				if (attempts > 1) {
					firstCallFailed++;
				}
				maxAttempts = Math.max(maxAttempts, attempts);
			}
			Map<String, Object> result = new LinkedHashMap<>();
			double normalP50 = percentile(normal, 50) / 1000.0;
			double recoveryP50 = percentile(recovery, 50) / 1000.0;
			result.put("iterations", iterations);
			result.put("first_call_after_expiry_failed", firstCallFailed);
			result.put("max_attempts_to_success", maxAttempts);
			result.put("first_failure", (failure != null) ? abbreviate(failure, 300) : null);
			result.put("normal_call_p50_us", round(normalP50, 1));
			result.put("time_to_first_success_p50_us", round(recoveryP50, 1));
			result.put("recovery_multiple_of_call", round(recoveryP50 / normalP50, 2));
			say(String.format(Locale.ROOT, "recovery, sdk on %s: first call failed %d/%d, %.2fx",
					upstream.getClass().getSimpleName(), firstCallFailed, iterations, recoveryP50 / normalP50));
			return result;
		}
		catch (RuntimeException ex) {
			return Map.of("error", abbreviate(ex.toString(), 300));
		}
	}

	/**
	 * 64 callers on one client, released at once right after every session was forgotten:
	 * how many {@code initialize} requests the upstream sees, and how many calls fail.
	 */
	private Map<String, Object> storm(Upstream upstream, String kind) throws Exception {
		int callers = 64;
		boolean sdk = kind.equals("sdk");
		// An SDK storm leaves callers hung for the SDK client's whole request timeout (5 s) now
		// and then, before, during and after the storm: in quick mode fewer of them, and no new
		// one after 15 s (the count says how many ran).
		int storms = n(this.quick ? (sdk ? 4 : 8) : 30);
		long budget = (this.quick && sdk) ? TimeUnit.SECONDS.toNanos(15) : Long.MAX_VALUE;
		List<Integer> initializesPerStorm = new ArrayList<>();
		StormTally tally = new StormTally();
		long t0 = System.nanoTime();
		try (Contender contender = Contender.open(kind, upstream.url())) {
			for (int i = 0; i < 500; i++) {
				contender.call();
			}
			for (int s = 0; s < storms && (s < 2 || System.nanoTime() - t0 < budget); s++) {
				// every caller's connection open and warm before the expiry
				stormRound(contender, callers, null);
				upstream.forgetSessions();
				int before = upstream.initializeCount();
				stormRound(contender, callers, tally);
				initializesPerStorm.add(upstream.initializeCount() - before);
				if (sdk) {
					// let the SDK client settle (it re-initializes lazily) before the next storm:
					// two good calls in a row, for at most about one timeout
					long settleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
					for (int i = 0, good = 0; i < 10 && good < 2 && System.nanoTime() < settleUntil; i++) {
						try {
							contender.call();
							good++;
						}
						catch (RuntimeException ex) {
							good = 0; // counted only inside storms
						}
					}
				}
			}
		}
		int ran = initializesPerStorm.size();
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("callers", callers);
		result.put("storms", ran);
		result.put("initialize_per_storm_max", initializesPerStorm.stream().mapToInt(Integer::intValue).max().orElse(0));
		result.put("initialize_per_storm_mean",
				round(initializesPerStorm.stream().mapToInt(Integer::intValue).average().orElse(0), 2));
		result.put("initialize_per_storm", initializesPerStorm);
		result.put("failed_calls", tally.failures.get());
		result.put("failed_calls_per_storm_mean", round((double) tally.failures.get() / ran, 1));
		result.put("slowest_caller_ms", round(tally.slowestNanos.get() / 1e6, 1));
		// a storm caller normally has its answer within tens of milliseconds: these hung
		result.put("callers_over_1s", tally.overOneSecond.get());
		result.put("first_failure", tally.failureText.isEmpty() ? null : abbreviate(tally.failureText.get(0), 300));
		result.put("seconds", round((System.nanoTime() - t0) / 1e9, 1));
		say(String.format(Locale.ROOT,
				"storm, %s on %s: initialize per storm %s, %d failed calls, %d callers over 1 s, slowest %.0f ms",
				kind, upstream.getClass().getSimpleName(), initializesPerStorm, tally.failures.get(),
				tally.overOneSecond.get(), tally.slowestNanos.get() / 1e6));
		return result;
	}

	/** What the callers of the counted storm rounds met. */
	private static final class StormTally {

		final AtomicInteger failures = new AtomicInteger();

		final AtomicLong slowestNanos = new AtomicLong();

		final AtomicInteger overOneSecond = new AtomicInteger();

		final List<String> failureText = new ArrayList<>();

		void record(long nanos, @Nullable RuntimeException failure) {
			this.slowestNanos.accumulateAndGet(nanos, Math::max);
			if (nanos >= TimeUnit.SECONDS.toNanos(1)) {
				this.overOneSecond.incrementAndGet();
			}
			if (failure != null) {
				this.failures.incrementAndGet();
				synchronized (this.failureText) {
					this.failureText.add(failure.getClass().getName() + ": " + failure.getMessage());
				}
			}
		}

	}

	/** One round of callers released at once; a {@code null} tally counts nothing. */
	private static void stormRound(Contender contender, int callers, @Nullable StormTally tally) throws Exception {
		CyclicBarrier start = new CyclicBarrier(callers);
		CountDownLatch done = new CountDownLatch(callers);
		for (int i = 0; i < callers; i++) {
			Thread thread = new Thread(() -> {
				try {
					start.await();
					long t0 = System.nanoTime();
					RuntimeException failure = null;
					try {
						contender.call();
					}
					catch (RuntimeException ex) {
						failure = ex;
					}
					if (tally != null) {
						tally.record(System.nanoTime() - t0, failure);
					}
				}
				catch (Exception ex) {
					// barrier broken: the round is lost, the count shows it
				}
				finally {
					done.countDown();
				}
			}, "storm-caller-" + i);
			thread.start();
		}
		if (!done.await(60, TimeUnit.SECONDS)) {
			throw new IllegalStateException("a storm did not end within a minute");
		}
	}

	// --- retained heap of idle clients ---------------------------------------------

	/**
	 * Heap retained per idle client, each kind in a JVM of its own ({@link IdleHeap}), all
	 * against one upstream in another JVM, so its per-connection state is not counted.
	 */
	private Map<String, Object> idleHeap() throws Exception {
		int n = n(this.quick ? 40 : 150); // clients per kind
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		String classpath = System.getProperty("java.class.path");
		Process upstream = new ProcessBuilder(java, "-cp", classpath, "-Xmx256m", FixedUpstream.class.getName())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
		try {
			BufferedReader lines = new BufferedReader(
					new InputStreamReader(upstream.getInputStream(), StandardCharsets.US_ASCII));
			String line = lines.readLine();
			if (line == null || !line.startsWith("PORT ")) {
				throw new IllegalStateException("the upstream child process did not start: " + line);
			}
			String url = "http://127.0.0.1:" + line.substring(5).trim() + FixedUpstream.PATH;
			Map<String, Process> children = new LinkedHashMap<>();
			for (String kind : new String[] { "mcpx", "sdk", "raw", "jsonmapper", "restclient" }) {
				children.put(kind, new ProcessBuilder(java, "-cp", classpath, "-Xms512m", "-Xmx512m",
						"-XX:+UseSerialGC", IdleHeap.class.getName(), kind, url, Integer.toString(n))
					.redirectErrorStream(true) // a failure's reason lands in the result
					.start());
			}
			Map<String, Object> result = new LinkedHashMap<>();
			result.put("clients_per_kind", n);
			for (Map.Entry<String, Process> child : children.entrySet()) {
				String output = new String(child.getValue().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
				child.getValue().waitFor(2, TimeUnit.MINUTES);
				String json = output.lines().filter((l) -> l.startsWith("{")).findFirst().orElse(null);
				result.put(child.getKey(), (json != null) ? new RawJson(json) : Map.of("error", abbreviate(output, 300)));
				say("idle heap, " + child.getKey() + ": " + json);
			}
			return result;
		}
		finally {
			upstream.getOutputStream().close();
			upstream.destroy();
		}
	}

	/** JSON written by a child, embedded as it is. */
	record RawJson(String json) {
	}

	// --- helpers -------------------------------------------------------------------

	/** A count of the mode, or a tenth of it (at least 2) when only the harness is checked. */
	private int n(int count) {
		return this.smoke ? Math.max(2, count / 10) : count;
	}

	/** One line of progress, with the seconds since the start: where quick mode's time goes. */
	private void say(String line) {
		System.out.printf(Locale.ROOT, "[%3d s] %s%n", (System.nanoTime() - this.started) / 1_000_000_000, line);
	}

	private static long percentile(long[] values, double p) {
		long[] sorted = values.clone();
		Arrays.sort(sorted);
		int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	private static double mean(long[] values) {
		return Arrays.stream(values).average().orElse(0);
	}

	/** The median of per-round figures: the middle one, or the mean of the two middle ones. */
	static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		sorted.sort(null);
		int n = sorted.size();
		return (n % 2 == 1) ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
	}

	static double round(double value, int digits) {
		double scale = Math.pow(10, digits);
		return Math.round(value * scale) / scale;
	}

	private static String abbreviate(String text, int max) {
		String oneLine = text.replaceAll("\\s+", " ");
		return (oneLine.length() <= max) ? oneLine : oneLine.substring(0, max) + "...";
	}

	/** A minimal JSON writer for maps, lists, strings, numbers, booleans and null. */
	static final class Json {

		static String write(Object value) {
			StringBuilder json = new StringBuilder();
			write(value, json, "");
			return json.toString();
		}

		private static void write(Object value, StringBuilder json, String indent) {
			if (value == null) {
				json.append("null");
			}
			else if (value instanceof Map<?, ?> map) {
				json.append("{");
				String inner = indent + "  ";
				boolean first = true;
				for (Map.Entry<?, ?> entry : map.entrySet()) {
					json.append(first ? "\n" : ",\n").append(inner);
					string(String.valueOf(entry.getKey()), json);
					json.append(": ");
					write(entry.getValue(), json, inner);
					first = false;
				}
				json.append(first ? "}" : "\n" + indent + "}");
			}
			else if (value instanceof List<?> list) {
				json.append("[");
				for (int i = 0; i < list.size(); i++) {
					json.append((i > 0) ? ", " : "");
					write(list.get(i), json, indent);
				}
				json.append("]");
			}
			else if (value instanceof RawJson raw) {
				json.append(raw.json());
			}
			else if (value instanceof Number || value instanceof Boolean) {
				json.append(value);
			}
			else {
				string(value.toString(), json);
			}
		}

		private static void string(String text, StringBuilder json) {
			json.append('"');
			for (char c : text.toCharArray()) {
				switch (c) {
					case '"' -> json.append("\\\"");
					case '\\' -> json.append("\\\\");
					case '\n' -> json.append("\\n");
					case '\r' -> json.append("\\r");
					case '\t' -> json.append("\\t");
					default -> {
						if (c < 0x20) {
							json.append(String.format("\\u%04x", (int) c));
						}
						else {
							json.append(c);
						}
					}
				}
			}
			json.append('"');
		}

	}

}
