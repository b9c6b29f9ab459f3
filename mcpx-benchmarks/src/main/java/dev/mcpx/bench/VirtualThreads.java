package dev.mcpx.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Many concurrent callers on virtual threads (Java 21 or newer), sharing one client of each
 * contender against the fixed upstream: throughput, and whether a blocked caller pins its
 * carrier thread, counted by JFR's {@code jdk.VirtualThreadPinned} events with no threshold
 * and attributed to the frames of the pinned stack. Prints one line of JSON.
 * <pre>
 * java -cp ... dev.mcpx.bench.VirtualThreads [callers] [warm seconds] [seconds per round] [rounds]
 * </pre>
 * The contenders share this JVM and its upstream, so whichever runs later finds the upstream's
 * code compiled further: measured one after the other, the second made 1.1-1.9x the calls per
 * second of the first, in either order. So every contender is warmed first, then measured in
 * interleaved rounds (mcpx, raw, then raw, mcpx, ...), and the ratio is taken within each round
 * and reported as the median, as {@link Rounds} does for the call path. mcpx on as many platform
 * threads runs in each round too, for the cost of the threads themselves.
 * The module is compiled for Java 17, so virtual threads are reached by reflection.
 */
public final class VirtualThreads {

	private VirtualThreads() {
	}

	public static void main(String[] args) throws Exception {
		int callers = (args.length > 0) ? Integer.parseInt(args[0]) : 1000;
		double warm = (args.length > 1) ? Double.parseDouble(args[1]) : 5;
		double seconds = (args.length > 2) ? Double.parseDouble(args[2]) : 5;
		int rounds = (args.length > 3) ? Integer.parseInt(args[3]) : 4;
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("java", System.getProperty("java.version"));
		out.put("callers", callers);
		out.put("rounds", rounds);
		ThreadFactory virtual = virtualThreadFactory();
		ThreadFactory platform = (task) -> {
			Thread thread = new Thread(task);
			thread.setDaemon(true);
			return thread;
		};
		Path jfr = Files.createTempFile("mcpx-vthreads", ".jfr");
		// enough server threads that the upstream is not what 1,000 callers wait for
		try (Upstream upstream = FixedUpstream.start(0, 16); Contender mcpx = Contender.open("mcpx", upstream.url());
				Contender raw = Contender.open("raw", upstream.url()); Recording recording = new Recording()) {
			recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
			recording.start();
			LongAdder unused = new LongAdder();
			run(mcpx, virtual, callers, warm, unused);
			run(raw, virtual, callers, warm, unused);
			run(mcpx, platform, callers, warm, unused);
			Series onVirtual = new Series("mcpx", mcpx, virtual);
			Series rawOnVirtual = new Series("raw", raw, virtual);
			Series onPlatform = new Series("mcpx_platform", mcpx, platform);
			List<Double> ratios = new ArrayList<>();
			List<Double> ratiosToPlatform = new ArrayList<>();
			for (int round = 0; round < rounds; round++) {
				List<Series> order = (round % 2 == 0) ? List.of(onVirtual, rawOnVirtual, onPlatform)
						: List.of(onPlatform, rawOnVirtual, onVirtual);
				for (Series series : order) {
					series.last = run(series.contender, series.threads, callers, seconds, series.failures);
					series.perRound.add(Measurements.round(series.last, 1));
				}
				ratios.add(Measurements.round(onVirtual.last / rawOnVirtual.last, 3));
				ratiosToPlatform.add(Measurements.round(onVirtual.last / onPlatform.last, 3));
			}
			recording.stop();
			recording.dump(jfr);
			Map<String, Integer> where = new LinkedHashMap<>();
			int pinnedEvents = 0;
			for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
				if (event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
					pinnedEvents++;
					where.merge(firstOwnFrame(event), 1, Integer::sum);
				}
			}
			for (Series series : List.of(onVirtual, rawOnVirtual, onPlatform)) {
				Map<String, Object> result = new LinkedHashMap<>();
				result.put("ops_per_s", Measurements.round(Measurements.median(series.perRound), 1));
				result.put("ops_per_s_per_round", series.perRound);
				result.put("failed_calls", series.failures.sum());
				out.put(series.kind, result);
			}
			// both contenders' virtual threads are recorded together: a pinned carrier is
			// attributed by its stack, and the target is none at all
			out.put("pinned_events", pinnedEvents);
			out.put("pinned_at", where);
			out.put("ratio_throughput_vs_raw", Measurements.round(Measurements.median(ratios), 3));
			out.put("ratio_throughput_vs_raw_per_round", ratios);
			out.put("ratio_throughput_vs_platform_threads", Measurements.round(Measurements.median(ratiosToPlatform), 3));
			out.put("ratio_throughput_vs_platform_threads_per_round", ratiosToPlatform);
		}
		finally {
			Files.deleteIfExists(jfr);
		}
		System.out.println(Measurements.Json.write(out).replaceAll("\\s*\\n\\s*", " "));
		System.exit(0);
	}

	/** One contender on one kind of thread, measured round by round. */
	private static final class Series {

		final String kind;

		final Contender contender;

		final ThreadFactory threads;

		final List<Double> perRound = new ArrayList<>();

		final LongAdder failures = new LongAdder();

		double last;

		Series(String kind, Contender contender, ThreadFactory threads) {
			this.kind = kind;
			this.contender = contender;
			this.threads = threads;
		}

	}

	/** Calls per second of the callers, each on a virtual thread of its own, sharing the contender. */
	private static double run(Contender contender, ThreadFactory virtual, int callers, double seconds,
			LongAdder failures) throws InterruptedException {
		LongAdder calls = new LongAdder();
		AtomicBoolean stop = new AtomicBoolean();
		CountDownLatch done = new CountDownLatch(callers);
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < callers; i++) {
			threads.add(virtual.newThread(() -> {
				try {
					while (!stop.get()) {
						try {
							contender.call();
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
			}));
		}
		threads.forEach(Thread::start);
		Thread.sleep(500); // every caller started and connected
		long first = calls.sum();
		long t0 = System.nanoTime();
		Thread.sleep((long) (seconds * 1000));
		long counted = calls.sum() - first;
		long elapsed = System.nanoTime() - t0;
		stop.set(true);
		done.await();
		return counted / (elapsed / 1e9);
	}

	/** The first frame of mcpx's or the JDK HTTP client's of a pinned stack, else the top one. */
	private static String firstOwnFrame(RecordedEvent event) {
		if (event.getStackTrace() == null || event.getStackTrace().getFrames().isEmpty()) {
			return "(no stack)";
		}
		var frames = event.getStackTrace().getFrames();
		for (var frame : frames) {
			String type = frame.getMethod().getType().getName();
			if (type.startsWith("dev.mcpx.client") || type.startsWith("jdk.internal.net.http")) {
				return type + "." + frame.getMethod().getName();
			}
		}
		return frames.get(0).getMethod().getType().getName() + "." + frames.get(0).getMethod().getName();
	}

	private static ThreadFactory virtualThreadFactory() {
		try {
			Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
			Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
			builder = ofVirtual.getMethod("name", String.class, long.class).invoke(builder, "caller-", 0L);
			return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("virtual threads need Java 21 or newer; this is "
					+ System.getProperty("java.version"), ex);
		}
	}

}
