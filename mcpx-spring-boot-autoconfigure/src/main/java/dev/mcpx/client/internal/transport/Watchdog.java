package dev.mcpx.client.internal.transport;

import java.io.Closeable;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * Enforces deadlines on blocking exchanges that run on the caller's thread. When a
 * deadline passes, the watchdog interrupts the waiting thread (which aborts an exchange
 * still waiting for its response headers) and closes the body being read (which aborts a
 * body read: the JDK client's body stream ignores interrupts).
 * <p>
 * Arming and disarming a guard cost a set insertion and removal, nothing more: a timer
 * thread ({@link WatchdogTimer}) sweeps the armed guards on a coarse {@linkplain #TICK tick}.
 * A scheduler task per request (a {@code ScheduledThreadPoolExecutor}) took a lock and
 * woke its thread on every call, which on loopback cost a measurable share of the call.
 * Deadlines therefore fire up to one tick late, which no request timeout notices. The
 * timer is one for every client of the JVM; it starts on demand and ends when no client
 * has armed anything for a while, so idle or closed clients hold no thread.
 */
public final class Watchdog implements AutoCloseable {

	/** How often armed guards are checked: the most a deadline fires late. */
	static final Duration TICK = Duration.ofMillis(10);

	/** How long the timer thread lingers without armed guards before it ends. */
	static final Duration IDLE = Duration.ofSeconds(5);

	private final WatchdogTimer timer;

	private final Set<Guard> armed = ConcurrentHashMap.newKeySet();

	/**
	 * Threads this watchdog interrupted whose guard is not closed yet: their interrupt is a
	 * deadline, not the application cancelling.
	 */
	private final ConcurrentHashMap<Thread, Integer> interruptedHere = new ConcurrentHashMap<>();

	/** Whether the timer sweeps this watchdog (or is about to): set by {@link #arm}, cleared by the timer. */
	private final AtomicBoolean watched = new AtomicBoolean();

	private volatile boolean closed;

	/**
	 * Creates a watchdog swept by the timer every client shares.
	 */
	public Watchdog() {
		this.timer = WatchdogTimer.SHARED;
	}

	/** A watchdog with a timer of its own, named after the upstream (for tests of the timer's life). */
	Watchdog(String upstream, Duration idle) {
		this.timer = new WatchdogTimer("mcpx-" + upstream + "-watchdog", idle);
	}

	/** Whether a timer thread is held: only while it runs (an ended one is let go). */
	boolean holdsThread() {
		return this.timer.holdsThread();
	}

	/** The guards armed and not yet closed or fired. */
	int armedCount() {
		return this.armed.size();
	}

	/**
	 * Starts guarding the current thread for the given time.
	 * @param timeout how long the guarded work may take
	 * @return the guard, to be closed when the work ends
	 * @throws IllegalStateException if the watchdog was closed: no deadline could be kept
	 */
	public Guard arm(Duration timeout) {
		if (this.closed) {
			throw new IllegalStateException("the watchdog of this client is closed");
		}
		Guard guard = new Guard(this, Thread.currentThread(), timeout, System.nanoTime() + timeout.toNanos());
		// Added before the flag is checked, and the timer re-checks the set after it clears
		// the flag: one of the two always sees the other, so no guard goes unwatched.
		this.armed.add(guard);
		if (!this.watched.get() && this.watched.compareAndSet(false, true)) {
			this.timer.watch(this);
		}
		return guard;
	}

	@Override
	public void close() {
		this.closed = true;
		if (this.timer != WatchdogTimer.SHARED) {
			this.timer.close();
		}
	}

	/**
	 * One tick of the timer: fires the guards whose deadline passed and gives up those whose
	 * owner the application interrupted.
	 * @param now the tick's {@link System#nanoTime()}
	 * @return {@code false} when nothing is armed or the watchdog is closed: the timer lets it go
	 */
	boolean sweep(long now) {
		if (this.closed || this.armed.isEmpty()) {
			return false;
		}
		for (Guard guard : this.armed) {
			if (now - guard.deadline >= 0) {
				this.armed.remove(guard);
				guard.fire();
			}
			else if (guard.owner.isInterrupted() && !this.interruptedHere.containsKey(guard.owner)) {
				// The application interrupted the waiting thread: a blocked body read
				// ignores interrupts, so close what it reads (its caller cancels).
				this.armed.remove(guard);
				guard.cancel();
			}
		}
		return true;
	}

	/**
	 * The timer let this watchdog go: a guard armed meanwhile that did not see the flag
	 * cleared is handed back to the timer here.
	 * @return {@code true} when the timer must watch it again
	 */
	boolean released() {
		this.watched.set(false);
		return !this.closed && !this.armed.isEmpty() && this.watched.compareAndSet(false, true);
	}

	/**
	 * The deadline of one piece of blocking work on one thread.
	 */
	public static final class Guard implements AutoCloseable {

		private final Watchdog watchdog;

		private final Thread owner;

		private final Duration timeout;

		private volatile long deadline;

		private @Nullable Closeable resource;

		private boolean done;

		private boolean fired;

		private boolean cancelled;

		private Guard(Watchdog watchdog, Thread owner, Duration timeout, long deadline) {
			this.watchdog = watchdog;
			this.owner = owner;
			this.timeout = timeout;
			this.deadline = deadline;
		}

		/**
		 * Moves the deadline to the given time from now (2025-11-25 basic/utilities/progress:
		 * progress may reset a timeout), never past the cap.
		 * @param from how long from now
		 * @param capNanos the latest deadline, in {@link System#nanoTime()} terms
		 * @return {@code false} when the deadline had fired already
		 */
		public boolean extend(Duration from, long capNanos) {
			synchronized (this) {
				if (this.fired || this.done) {
					return false;
				}
				long next = System.nanoTime() + from.toNanos();
				this.deadline = (next - capNanos > 0) ? capNanos : next;
				return true;
			}
		}

		/**
		 * Brings the deadline forward to a cap, if it lies beyond it.
		 * @param capNanos the latest deadline, in {@link System#nanoTime()} terms
		 */
		public void limit(long capNanos) {
			synchronized (this) {
				if (this.deadline - capNanos > 0) {
					this.deadline = capNanos;
				}
			}
		}

		/**
		 * Whether the owner's thread was interrupted by someone other than this guard while
		 * it waited: the application cancelled the work.
		 * @return {@code true} once seen interrupted
		 */
		public synchronized boolean cancelled() {
			return this.cancelled;
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
				closeNow = this.fired || this.cancelled;
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
				this.watchdog.interruptedHere.merge(this.owner, 1, Integer::sum);
				// Interrupt under the lock: once close() holds it, no interrupt can follow.
				this.owner.interrupt();
			}
			if (toClose != null) {
				closeQuietly(toClose);
			}
		}

		private void cancel() {
			Closeable toClose;
			synchronized (this) {
				if (this.done || this.fired) {
					return;
				}
				this.cancelled = true;
				toClose = this.resource;
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
			this.watchdog.armed.remove(this);
			boolean wasFired;
			synchronized (this) {
				this.done = true;
				wasFired = this.fired;
			}
			if (wasFired) {
				Thread.interrupted();
				this.watchdog.interruptedHere.computeIfPresent(this.owner, (thread, count) -> (count > 1) ? count - 1 : null);
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
