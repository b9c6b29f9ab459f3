package dev.mcpx.client.internal.transport;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * The thread that sweeps the watchdogs with armed guards, every {@link Watchdog#TICK}. One
 * serves every client of the JVM: a thread per client made each upstream's first call
 * start one, the largest single share of what that call costs above its raw exchanges
 * (docs/performance.md, "The first call, taken apart"), and held a thread per busy
 * upstream. Sweeping never blocks (a fired guard interrupts a thread and closes a stream),
 * so one client's deadlines do not hold up another's. The thread starts when a watchdog
 * arms a guard and ends after a while with nothing armed anywhere.
 */
final class WatchdogTimer {

	/** The timer of every client's watchdog. */
	static final WatchdogTimer SHARED = new WatchdogTimer("mcpx-watchdog", Watchdog.IDLE);

	private final String threadName;

	private final long idleNanos;

	/** The watchdogs with armed guards (and, for a tick after, without). */
	private final Set<Watchdog> watched = ConcurrentHashMap.newKeySet();

	/** Whether a timer thread is alive (or about to be): at most one is. */
	private final AtomicBoolean sweeping = new AtomicBoolean();

	/** The timer thread while it runs; cleared when it ends, so an idle JVM holds no dead thread. */
	private final AtomicReference<@Nullable Thread> sweeper = new AtomicReference<>();

	private volatile boolean closed;

	WatchdogTimer(String threadName, Duration idle) {
		this.threadName = threadName;
		this.idleNanos = idle.toNanos();
	}

	/**
	 * Sweeps the given watchdog from the next tick on, starting the thread if none runs.
	 * @param watchdog a watchdog that armed a guard
	 */
	void watch(Watchdog watchdog) {
		// Added before the thread is checked, and the thread re-checks the set after it
		// gives up: one of the two always sees the other.
		this.watched.add(watchdog);
		if (!this.sweeping.get() && this.sweeping.compareAndSet(false, true)) {
			Thread thread = new Thread(this::run, this.threadName);
			thread.setDaemon(true);
			this.sweeper.set(thread);
			thread.start();
		}
	}

	/**
	 * Ends the thread at once: for a timer of one watchdog only, closed with it
	 * ({@link Watchdog#close()}); the shared timer ends when idle.
	 */
	void close() {
		this.closed = true;
		Thread thread = this.sweeper.get();
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	/** Whether the timer thread runs. */
	boolean holdsThread() {
		return this.sweeper.get() != null;
	}

	private void run() {
		try {
			sweepUntilIdle();
		}
		finally {
			// Only this thread: a later watch() may have started the next one already.
			this.sweeper.compareAndSet(Thread.currentThread(), null);
		}
	}

	private void sweepUntilIdle() {
		long idleSince = System.nanoTime();
		while (!this.closed) {
			LockSupport.parkNanos(this, Watchdog.TICK.toNanos());
			long now = System.nanoTime();
			for (Watchdog watchdog : this.watched) {
				if (!watchdog.sweep(now)) {
					this.watched.remove(watchdog);
					if (watchdog.released()) {
						this.watched.add(watchdog);
					}
				}
			}
			if (this.watched.isEmpty()) {
				if (now - idleSince < this.idleNanos) {
					continue;
				}
				this.sweeping.set(false);
				if (this.watched.isEmpty() || !this.sweeping.compareAndSet(false, true)) {
					return; // idle; a later watch() starts a new thread
				}
			}
			idleSince = now;
		}
		this.sweeping.set(false);
	}

}
