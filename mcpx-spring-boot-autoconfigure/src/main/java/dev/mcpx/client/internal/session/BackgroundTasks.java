package dev.mcpx.client.internal.session;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a client's fire-and-forget work (cancellation notices, re-subscribing in a new
 * session) off the caller's thread. One thread at most, gone when idle; a bounded queue, so
 * a hung server cannot make the client hoard advisory work. Work that must not be lost
 * ({@link #executeEssential}) gets a thread of its own when the queue is full.
 */
public final class BackgroundTasks implements Executor, AutoCloseable {

	/** Cancellation notices beyond this many pending are dropped: they are advisory. */
	private static final int MAX_PENDING = 256;

	private static final long IDLE_KEEP_ALIVE_SECONDS = 5;

	private final ThreadPoolExecutor executor;

	/**
	 * Creates the executor of one upstream's client.
	 * @param upstream the upstream name, for the thread name
	 */
	public BackgroundTasks(String upstream) {
		AtomicInteger count = new AtomicInteger();
		this.executor = new ThreadPoolExecutor(1, 1, IDLE_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(MAX_PENDING), (runnable) -> {
					Thread thread = new Thread(runnable, "mcpx-" + upstream + "-background-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				}, (rejected, executor) -> {
					// Advisory work beyond the bound is dropped; essential work runs anyway,
					// unless the client is closing.
					if (rejected instanceof Essential essential && !executor.isShutdown()) {
						Thread thread = new Thread(essential, "mcpx-" + upstream + "-background-overflow");
						thread.setDaemon(true);
						thread.start();
					}
				});
		this.executor.allowCoreThreadTimeOut(true);
	}

	@Override
	public void execute(Runnable task) {
		this.executor.execute(task);
	}

	/**
	 * Runs work that must not be dropped when the queue is full (re-subscribing after a
	 * recovery: a subscription is never silently lost).
	 * @param task the work
	 */
	public void executeEssential(Runnable task) {
		this.executor.execute(new Essential(task));
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	private record Essential(Runnable task) implements Runnable {

		@Override
		public void run() {
			this.task.run();
		}

	}

}
