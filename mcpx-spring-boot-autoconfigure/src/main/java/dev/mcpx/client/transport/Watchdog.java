package dev.mcpx.client.transport;

import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Enforces deadlines on blocking exchanges that run on the caller's thread. When a
 * deadline passes, the watchdog interrupts the waiting thread (which aborts an exchange
 * still waiting for its response headers) and closes the body being read (which aborts a
 * body read: the JDK client's body stream ignores interrupts). One timer thread per client, started on demand and gone when
 * idle, so an idle or closed client holds no thread.
 */
public final class Watchdog implements AutoCloseable {

	/** How long the idle timer thread lingers before it ends. */
	private static final long IDLE_KEEP_ALIVE_SECONDS = 5;

	private final ScheduledThreadPoolExecutor timer;

	/**
	 * Creates a watchdog whose thread is named after the upstream.
	 * @param upstream the upstream name
	 */
	public Watchdog(String upstream) {
		AtomicInteger count = new AtomicInteger();
		this.timer = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "mcpx-" + upstream + "-watchdog-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.timer.setRemoveOnCancelPolicy(true);
		this.timer.setKeepAliveTime(IDLE_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
		this.timer.allowCoreThreadTimeOut(true);
	}

	/**
	 * Starts guarding the current thread for the given time.
	 * @param timeout how long the guarded work may take
	 * @return the guard, to be closed when the work ends
	 */
	public Guard arm(Duration timeout) {
		Guard guard = new Guard(Thread.currentThread(), timeout);
		guard.future = this.timer.schedule(guard::fire, timeout.toNanos(), TimeUnit.NANOSECONDS);
		return guard;
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
	}

	/**
	 * The deadline of one piece of blocking work on one thread.
	 */
	public static final class Guard implements AutoCloseable {

		private final Thread owner;

		private final Duration timeout;

		private volatile ScheduledFuture<?> future;

		private Closeable resource;

		private boolean done;

		private boolean fired;

		private Guard(Thread owner, Duration timeout) {
			this.owner = owner;
			this.timeout = timeout;
		}

		/**
		 * The time this guard allows.
		 * @return the timeout
		 */
		public Duration timeout() {
			return this.timeout;
		}

		/**
		 * Registers the resource to close if the deadline passes while it is read.
		 * @param resource the response being read
		 */
		public void attach(Closeable resource) {
			boolean closeNow;
			synchronized (this) {
				this.resource = resource;
				closeNow = this.fired;
			}
			if (closeNow) {
				closeQuietly(resource);
			}
		}

		/**
		 * Whether the deadline has passed.
		 * @return {@code true} once the watchdog fired
		 */
		public synchronized boolean expired() {
			return this.fired;
		}

		private void fire() {
			Closeable toClose;
			synchronized (this) {
				if (this.done) {
					return;
				}
				this.fired = true;
				toClose = this.resource;
				// Interrupt under the lock: once close() holds it, no interrupt can follow.
				this.owner.interrupt();
			}
			if (toClose != null) {
				closeQuietly(toClose);
			}
		}

		/**
		 * Ends the guard. If the deadline fired, the interrupt it caused is cleared so it
		 * does not leak to the caller's later work.
		 */
		@Override
		public void close() {
			ScheduledFuture<?> scheduled = this.future;
			if (scheduled != null) {
				scheduled.cancel(false);
			}
			boolean wasFired;
			synchronized (this) {
				this.done = true;
				wasFired = this.fired;
			}
			if (wasFired) {
				Thread.interrupted();
			}
		}

		private static void closeQuietly(Closeable closeable) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// Closing only unblocks the reader; its failure changes nothing.
			}
		}

	}

}
