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
 * java -cp ... dev.mcpx.bench.VirtualThreads [callers] [warm seconds] [seconds]
 * </pre>
 * The module is compiled for Java 17, so virtual threads are reached by reflection.
 */
public final class VirtualThreads {

	private VirtualThreads() {
	}

	public static void main(String[] args) throws Exception {
		int callers = (args.length > 0) ? Integer.parseInt(args[0]) : 1000;
		double warm = (args.length > 1) ? Double.parseDouble(args[1]) : 5;
		double seconds = (args.length > 2) ? Double.parseDouble(args[2]) : 5;
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("java", System.getProperty("java.version"));
		out.put("callers", callers);
		// -Dmcpx.bench.platform=true: the same on platform threads, for comparison by hand
		ThreadFactory virtual = Boolean.getBoolean("mcpx.bench.platform") ? Thread::new : virtualThreadFactory();
		Path jfr = Files.createTempFile("mcpx-vthreads", ".jfr");
		// enough server threads that the upstream is not what 1,000 callers wait for
		try (Upstream upstream = FixedUpstream.start(0, 16)) {
			for (String kind : System.getProperty("mcpx.bench.contenders", "mcpx,raw").split(",")) {
				try (Contender contender = Contender.open(kind, upstream.url()); Recording recording = new Recording()) {
					recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
					recording.start();
					run(contender, virtual, callers, warm, new LongAdder());
					LongAdder failures = new LongAdder();
					double opsPerSecond = run(contender, virtual, callers, seconds, failures);
					recording.stop();
					recording.dump(jfr);
					Map<String, Object> result = new LinkedHashMap<>();
					result.put("ops_per_s", Measurements.round(opsPerSecond, 1));
					result.put("failed_calls", failures.sum());
					List<RecordedEvent> pinned = RecordingFile.readAllEvents(jfr)
						.stream()
						.filter((event) -> event.getEventType().getName().equals("jdk.VirtualThreadPinned"))
						.toList();
					result.put("pinned_events", pinned.size());
					Map<String, Integer> where = new LinkedHashMap<>();
					for (RecordedEvent event : pinned) {
						where.merge(firstOwnFrame(event), 1, Integer::sum);
					}
					result.put("pinned_at", where);
					out.put(kind, result);
				}
			}
		}
		finally {
			Files.deleteIfExists(jfr);
		}
		System.out.println(Measurements.Json.write(out).replaceAll("\\s*\\n\\s*", " "));
		System.exit(0);
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
