package dev.mcpx.autoconfigure.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.McpClient;

/**
 * Pings upstreams for health checks, so that a check never waits longer than its timeout:
 * the ping runs on a small pool of daemon threads and the check waits for it with a
 * timeout. A ping that outlives the check goes on (bounded by the client's request
 * timeout) and is shared: while one is in flight for an upstream, checks wait for it
 * rather than starting another, so a hung upstream costs one thread, not one per check.
 */
final class McpxHealthProbe implements AutoCloseable {

	/** Idle probe threads end after this, so an application that is never checked keeps none. */
	private static final long THREAD_KEEP_ALIVE_SECONDS = 60;

	private final Duration timeout;

	private final ThreadPoolExecutor executor;

	private final Map<String, CompletableFuture<Void>> inFlight = new ConcurrentHashMap<>();

	/**
	 * Creates a probe.
	 * @param timeout the longest a check waits for a ping
	 * @param upstreams how many upstreams there are: at most one thread each
	 */
	McpxHealthProbe(Duration timeout, int upstreams) {
		this.timeout = timeout;
		int threads = Math.max(1, upstreams);
		this.executor = new ThreadPoolExecutor(threads, threads, THREAD_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), new ProbeThreads());
		this.executor.allowCoreThreadTimeOut(true);
	}

	/**
	 * Fits the pool to the live set of upstreams, which changes while the application runs:
	 * at most one thread per live upstream, as at start, so that upstreams added later are
	 * pinged side by side too, and a pool grown for upstreams that left shrinks (its idle
	 * threads end at once; busy ones when their ping ends).
	 * @param upstreams how many upstreams are live now
	 */
	void fit(int upstreams) {
		int threads = Math.max(1, upstreams);
		synchronized (this.executor) {
			int current = this.executor.getCorePoolSize();
			// the core size may never exceed the maximum: raise the maximum first, lower it last
			if (threads > current) {
				this.executor.setMaximumPoolSize(threads);
				this.executor.setCorePoolSize(threads);
			}
			else if (threads < current) {
				this.executor.setCorePoolSize(threads);
				this.executor.setMaximumPoolSize(threads);
			}
		}
	}

	/**
	 * Pings the upstream, or joins the ping already in flight, and waits at most the
	 * timeout. Never throws: a failure is part of the outcome (and of the client's status).
	 * @param client the upstream's client
	 * @return how the ping went
	 */
	Outcome ping(McpClient client) {
		try {
			CompletableFuture<Void> ping = this.inFlight.compute(client.name(),
					(name, running) -> (running != null && !running.isDone()) ? running
							: CompletableFuture.runAsync(client::ping, this.executor));
			// nothing is kept of a ping that ended, so upstreams that come and go leave no entry
			ping.whenComplete((result, failure) -> this.inFlight.remove(client.name(), ping));
			ping.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
			return Outcome.ANSWERED;
		}
		catch (TimeoutException ex) {
			return Outcome.TIMED_OUT;
		}
		catch (ExecutionException ex) {
			return new Outcome(false, ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Outcome.TIMED_OUT;
		}
		catch (RuntimeException ex) { // rejected after close
			return new Outcome(false, ex);
		}
	}

	/** Stops the probe threads; a ping in flight is interrupted. */
	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/**
	 * How one ping went.
	 *
	 * @param timedOut whether the wait ended before the ping did
	 * @param failure why the ping failed, or {@code null} when it was answered or timed out
	 */
	record Outcome(boolean timedOut, @Nullable Throwable failure) {

		static final Outcome ANSWERED = new Outcome(false, null);

		static final Outcome TIMED_OUT = new Outcome(true, null);

	}

	private static final class ProbeThreads implements ThreadFactory {

		private final AtomicInteger count = new AtomicInteger();

		@Override
		public Thread newThread(Runnable task) {
			Thread thread = new Thread(task, "mcpx-health-probe-" + this.count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		}

	}

}
