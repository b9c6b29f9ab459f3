package dev.mcpx.client.internal.session;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a client's fire-and-forget work (cancellation notices) off the caller's thread.
 * One thread at most, gone when idle; a bounded queue, so a hung server cannot make the
 * client hoard work.
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
				}, new ThreadPoolExecutor.DiscardPolicy());
		this.executor.allowCoreThreadTimeOut(true);
	}

	@Override
	public void execute(Runnable task) {
		this.executor.execute(task);
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
	}

}
