package dev.mcpx.client.internal.transport;

import java.io.Closeable;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * Enforces deadlines on blocking exchanges that run on the caller's thread. When a
 * deadline passes, the watchdog interrupts the waiting thread (which aborts an exchange
 * still waiting for its response headers) and closes the body being read (which aborts a
 * body read: the JDK client's body stream ignores interrupts).
 * <p>
 * Arming and disarming a guard cost a set insertion and removal, nothing more: one timer
 * thread per client sweeps the armed guards on a coarse {@linkplain #TICK tick}. A
 * scheduler task per request (a {@code ScheduledThreadPoolExecutor}) took a lock and
 * woke its thread on every call, which on loopback cost a measurable share of the call.
 * Deadlines therefore fire up to one tick late, which no request timeout notices. The
 * thread starts on demand and ends when the client has been idle for a while, so an idle
 * or closed client holds no thread.
 */
public final class Watchdog implements AutoCloseable {

	/** How often armed guards are checked: the most a deadline fires late. */
	static final Duration TICK = Duration.ofMillis(10);

	/** How long the timer thread lingers without armed guards before it ends. */
	private static final Duration IDLE = Duration.ofSeconds(5);

	private final String threadName;

	private final long idleNanos;

	private final Set<Guard> armed = ConcurrentHashMap.newKeySet();

	/**
	 * Threads this watchdog interrupted whose guard is not closed yet: their interrupt is a
	 * deadline, not the application cancelling.
	 */
	private final ConcurrentHashMap<Thread, Integer> interruptedHere = new ConcurrentHashMap<>();

	/** Whether a timer thread is alive (or about to be): at most one is. */
	private final AtomicBoolean sweeping = new AtomicBoolean();

	/** The timer thread while it runs; cleared when it ends, so an idle client holds no dead thread. */
	private final AtomicReference<@Nullable Thread> sweeper = new AtomicReference<>();

	private volatile boolean closed;

	/**
	 * Creates a watchdog whose thread is named after the upstream.
	 * @param upstream the upstream name
	 */
	public Watchdog(String upstream) {
		this(upstream, IDLE);
	}

	Watchdog(String upstream, Duration idle) {
		this.threadName = "mcpx-" + upstream + "-watchdog";
		this.idleNanos = idle.toNanos();
	}

	/** Whether a timer thread is held: only while it runs (an ended one is let go). */
	boolean holdsThread() {
		return this.sweeper.get() != null;
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
		// Added before the thread is checked, and the thread re-checks the set after it
		// gives up: one of the two always sees the other, so no guard goes unwatched.
		this.armed.add(guard);
		if (!this.sweeping.get() && this.sweeping.compareAndSet(false, true)) {
			startSweeper();
		}
		return guard;
	}

	@Override
	public void close() {
		this.closed = true;
		Thread thread = this.sweeper.get();
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	private void startSweeper() {
		Thread thread = new Thread(this::sweep, this.threadName);
		thread.setDaemon(true);
		this.sweeper.set(thread);
		thread.start();
	}

	private void sweep() {
		try {
			sweepUntilIdle();
		}
		finally {
			// Only this thread: a later arm() may have started the next one already.
			this.sweeper.compareAndSet(Thread.currentThread(), null);
		}
	}

	private void sweepUntilIdle() {
		long idleSince = System.nanoTime();
		while (!this.closed) {
			LockSupport.parkNanos(this, TICK.toNanos());
			long now = System.nanoTime();
			if (this.armed.isEmpty()) {
				if (now - idleSince < this.idleNanos) {
					continue;
				}
				this.sweeping.set(false);
				if (this.armed.isEmpty() || !this.sweeping.compareAndSet(false, true)) {
					return; // idle; a later arm() starts a new thread
				}
			}
			idleSince = now;
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
		}
		this.sweeping.set(false);
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
