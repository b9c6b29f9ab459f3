package dev.mcpx.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One contender in a JVM of its own, measured on command by {@link Rounds}, which runs the
 * upstream and the other contenders' workers: the contender's code is compiled once and never
 * shares a JVM (or its profiles) with another contender's, while the rounds of all of them
 * interleave in time. Reads one command per line on standard input and answers each with one
 * line of JSON on standard output:
 * <ul>
 * <li>{@code warm <seconds>}: slices of 2.5 s at 16 threads and at 1 in turn, so that both
 * paths are compiled and the compiler sees each more than once (one slice of each left mcpx's
 * deeper call path still compiling through the rounds that followed);</li>
 * <li>{@code round <latency seconds> <throughput seconds> <threads>}: one round, latency first
 * (one caller: p50, p99, and CPU time and allocation per call, from the JVM's per-thread
 * counters), then throughput (calls per second with the given number of callers sharing the
 * one client);</li>
 * <li>{@code quit}.</li>
 * </ul>
 * <pre>
 * java -cp ... dev.mcpx.bench.Worker mcpx|sdk|raw URL
 * </pre>
 */
public final class Worker {

	/** The per-call samples kept for a latency round: more than any quick round makes. */
	private static final int MAX_SAMPLES = 2_000_000;

	private final Contender contender;

	private final long[] samples = new long[MAX_SAMPLES];

	private final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory
		.getThreadMXBean();

	private Worker(Contender contender) {
		this.contender = contender;
	}

	public static void main(String[] args) throws Exception {
		Contender contender = Contender.open(args[0], args[1]);
		Worker worker = new Worker(contender);
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		System.out.println("{\"ready\": true, \"java\": \"" + System.getProperty("java.version") + "\"}");
		System.out.flush();
		for (String line = in.readLine(); line != null; line = in.readLine()) {
			String[] command = line.trim().split("\\s+");
			String answer = switch (command[0]) {
				case "warm" -> worker.warm(Double.parseDouble(command[1]));
				case "round" -> worker.round(Double.parseDouble(command[1]), Double.parseDouble(command[2]),
						Integer.parseInt(command[3]));
				case "quit" -> null;
				default -> "{\"error\": \"unknown command\"}";
			};
			if (answer == null) {
				break;
			}
			System.out.println(answer);
			System.out.flush();
		}
		contender.close();
		System.exit(0); // the clients' HTTP client threads
	}

	private String warm(double seconds) throws InterruptedException {
		double slice = 2.5;
		int slices = Math.max(2, (int) Math.round(seconds / slice));
		for (int i = 0; i < slices; i++) {
			if (i % 2 == 0) {
				throughput(16, slice, new LongAdder());
			}
			else {
				long until = System.nanoTime() + (long) (slice * 1e9);
				while (System.nanoTime() < until) {
					this.contender.call();
				}
			}
		}
		return "{\"warm\": " + seconds + "}";
	}

	private String round(double latencySeconds, double throughputSeconds, int callers) throws InterruptedException {
		Map<String, Object> result = new LinkedHashMap<>();
		long[] samples = this.samples;
		int n = 0;
		// The client's own threads up, as in a busy application: a pool whose idle threads end
		// (mcpx's HTTP workers, after 5 s) would otherwise start them during the measurement,
		// and the CPU of threads that were not alive at both ends is not counted.
		throughput(callers, 0.1, new LongAdder());
		// A clean heap for every measurement: the garbage of this worker's last turn (its
		// throughput phase, moments ago when a round reverses) is not collected in this one.
		System.gc();
		long[] ids = this.threads.getAllThreadIds();
		long cpuBefore = sum(this.threads.getThreadCpuTime(ids));
		long allocBefore = sum(this.threads.getThreadAllocatedBytes(ids));
		long callerCpuBefore = this.threads.getCurrentThreadCpuTime();
		long callerAllocBefore = this.threads.getCurrentThreadAllocatedBytes();
		long startedBefore = this.threads.getTotalStartedThreadCount();
		long until = System.nanoTime() + (long) (latencySeconds * 1e9);
		long t0 = System.nanoTime();
		while (n < samples.length) {
			long start = System.nanoTime();
			this.contender.call();
			long end = System.nanoTime();
			samples[n++] = end - start;
			if (end >= until) {
				break;
			}
		}
		long elapsed = System.nanoTime() - t0;
		long callerCpu = this.threads.getCurrentThreadCpuTime() - callerCpuBefore;
		long callerAlloc = this.threads.getCurrentThreadAllocatedBytes() - callerAllocBefore;
		long started = this.threads.getTotalStartedThreadCount() - startedBefore;
		// Threads alive at both ends: the caller and the client's own (a thread that started
		// and ended in between is lost, and the count of started threads says so).
		long cpu = delta(ids, cpuBefore, true);
		long alloc = delta(ids, allocBefore, false);
		long[] sorted = Arrays.copyOf(samples, n);
		Arrays.sort(sorted);
		result.put("calls", n);
		result.put("p50_us", round(percentile(sorted, 50) / 1000.0));
		result.put("p90_us", round(percentile(sorted, 90) / 1000.0));
		result.put("p99_us", round(percentile(sorted, 99) / 1000.0));
		result.put("mean_us", round(elapsed / 1000.0 / n));
		result.put("caller_cpu_us_per_call", round(callerCpu / 1000.0 / n));
		result.put("cpu_us_per_call", round(cpu / 1000.0 / n));
		result.put("caller_alloc_bytes_per_call", callerAlloc / n);
		result.put("alloc_bytes_per_call", alloc / n);
		result.put("threads_started_per_call", round((double) started / n));
		LongAdder failures = new LongAdder();
		result.put("ops_per_s", round(throughput(callers, throughputSeconds, failures)));
		result.put("callers", callers);
		result.put("failed_calls", failures.sum());
		return Measurements.Json.write(result).replaceAll("\\s*\\n\\s*", " ");
	}

	/** The counters' growth over the same threads as the sum before. */
	private long delta(long[] ids, long before, boolean cpu) {
		long[] after = cpu ? this.threads.getThreadCpuTime(ids) : this.threads.getThreadAllocatedBytes(ids);
		return sum(after) - before;
	}

	private static long sum(long[] values) {
		long total = 0;
		for (long value : values) {
			total += Math.max(0, value);
		}
		return total;
	}

	/** Calls per second with the given callers sharing the one client. */
	private double throughput(int callers, double seconds, LongAdder failures) throws InterruptedException {
		LongAdder calls = new LongAdder();
		AtomicBoolean stop = new AtomicBoolean();
		CountDownLatch done = new CountDownLatch(callers);
		for (int i = 0; i < callers; i++) {
			Thread thread = new Thread(() -> {
				try {
					while (!stop.get()) {
						try {
							this.contender.call();
							calls.increment();
						}
						catch (RuntimeException ex) {
							failures.increment();
						}
					}
				}
				finally {
					done.countDown();
				}
			}, "caller-" + i);
			thread.start();
		}
		// the callers' first calls stay out: they start all at once
		Thread.sleep(200);
		long first = calls.sum();
		long t0 = System.nanoTime();
		Thread.sleep((long) (seconds * 1000));
		long counted = calls.sum() - first;
		long elapsed = System.nanoTime() - t0;
		stop.set(true);
		done.await(30, TimeUnit.SECONDS);
		return counted / (elapsed / 1e9);
	}

	private static long percentile(long[] sorted, double p) {
		int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	private static double round(double value) {
		return Math.round(value * 100) / 100.0;
	}

}
