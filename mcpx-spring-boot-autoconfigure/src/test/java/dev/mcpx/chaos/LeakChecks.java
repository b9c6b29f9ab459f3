package dev.mcpx.chaos;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Thread-leak checks shared by the chaos and fuzz tests: every thread an {@code McpClient}
 * starts is named {@code mcpx-<upstream>-...} (watchdog, background, listen), so comparing
 * the live {@code mcpx-*} thread names before a client is built and after it is closed shows
 * whether it left any behind.
 */
public final class LeakChecks {

	/** How long idle client threads may take to end after {@code close()}. */
	public static final Duration THREAD_GRACE = Duration.ofSeconds(10);

	private LeakChecks() {
	}

	/**
	 * The names of the live threads whose name starts with {@code mcpx-}.
	 * @return the names, sorted
	 */
	public static Set<String> mcpxThreads() {
		return threads("mcpx-");
	}

	/**
	 * The names of the live threads whose name starts with the given prefix.
	 * @param prefix the prefix
	 * @return the names, sorted
	 */
	public static Set<String> threads(String prefix) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith(prefix))
			.collect(Collectors.toCollection(TreeSet::new));
	}

	/**
	 * Waits until no {@code mcpx-*} thread lives that did not live at the baseline.
	 * @param baseline the names before the client was built
	 * @param grace how long to wait
	 * @return the names still alive beyond the baseline after the wait (empty when none leaked)
	 */
	public static Set<String> leakedMcpxThreads(Set<String> baseline, Duration grace) {
		long deadline = System.nanoTime() + grace.toNanos();
		while (true) {
			Set<String> extra = new TreeSet<>(mcpxThreads());
			extra.removeAll(baseline);
			if (extra.isEmpty() || System.nanoTime() > deadline) {
				return extra;
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return extra;
			}
		}
	}

	/**
	 * Renders every throwable of a failure: the chain of causes and, recursively, the
	 * suppressed ones, each with its type and message.
	 * @param failure the failure
	 * @return one line per throwable, indented by depth
	 */
	public static String chain(Throwable failure) {
		StringBuilder out = new StringBuilder();
		chain(failure, 0, out, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
		return out.toString();
	}

	private static void chain(Throwable failure, int depth, StringBuilder out, Set<Throwable> seen) {
		for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
			out.append("  ".repeat(depth)).append((t == failure) ? "" : "caused by ").append(t).append('\n');
			for (Throwable suppressed : t.getSuppressed()) {
				out.append("  ".repeat(depth + 1)).append("suppressed:\n");
				chain(suppressed, depth + 2, out, seen);
			}
		}
	}

}
