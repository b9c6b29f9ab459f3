package dev.mcpx.client.internal.transport.stdio;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.recovery.ProcessRestartPolicy;

/**
 * Applies a {@link ProcessRestartPolicy}: how long to wait before the next start of a
 * server process, and whether one may start at all. Every start after the first is a
 * restart; more than {@code maxRestarts} within the window make the upstream down until
 * the cool-down has passed. A process that ran a whole window ends a series of crashes in
 * a row, so the next backoff starts from the initial one again.
 */
public final class RestartBudget {

	private final ProcessRestartPolicy policy;

	private final Clock clock;

	/** When each restart within the window happened, oldest first. */
	private final Deque<Instant> restarts = new ArrayDeque<>();

	private boolean started;

	private int crashesInARow;

	private @Nullable Instant downUntil;

	private long totalRestarts;

	/**
	 * Creates the budget of one upstream.
	 * @param policy the policy
	 * @param clock the time source
	 */
	public RestartBudget(ProcessRestartPolicy policy, Clock clock) {
		this.policy = policy;
		this.clock = clock;
	}

	/**
	 * Admits one more start.
	 * @param lastRanFor how long the previous process ran, absent when there was none
	 * @return how long to wait before starting it
	 * @throws Exhausted if the budget is spent: the upstream is down until the cool-down ends
	 */
	public synchronized Duration admit(@Nullable Duration lastRanFor) throws Exhausted {
		Instant now = this.clock.instant();
		if (this.downUntil != null) {
			if (now.isBefore(this.downUntil)) {
				throw new Exhausted(this.downUntil, this.policy);
			}
			// The cool-down is over: a fresh budget, from the initial backoff.
			this.downUntil = null;
			this.restarts.clear();
			this.crashesInARow = 0;
		}
		if (!this.started) {
			this.started = true;
			return Duration.ZERO;
		}
		Instant windowStart = now.minus(this.policy.window());
		while (!this.restarts.isEmpty() && this.restarts.peekFirst().isBefore(windowStart)) {
			this.restarts.removeFirst();
		}
		if (this.restarts.size() >= this.policy.maxRestarts()) {
			this.downUntil = now.plus(this.policy.coolDown());
			throw new Exhausted(this.downUntil, this.policy);
		}
		if (lastRanFor != null && lastRanFor.compareTo(this.policy.window()) >= 0) {
			this.crashesInARow = 0;
		}
		this.crashesInARow++;
		this.restarts.addLast(now);
		this.totalRestarts++;
		return this.policy.backoff(this.crashesInARow);
	}

	/**
	 * How often a process was started again after the first start.
	 * @return the restarts
	 */
	public synchronized long restarts() {
		return this.totalRestarts;
	}

	/**
	 * When starting is tried again, if the budget is spent.
	 * @return the end of the cool-down, absent when the upstream is not down
	 */
	public synchronized @Nullable Instant downUntil() {
		Instant until = this.downUntil;
		return (until != null && this.clock.instant().isBefore(until)) ? until : null;
	}

	/**
	 * The restart budget is spent.
	 */
	public static final class Exhausted extends Exception {

		private final Instant downUntil;

		Exhausted(Instant downUntil, ProcessRestartPolicy policy) {
			super("the server process was restarted " + policy.maxRestarts() + " times within "
					+ policy.window().toSeconds() + " s (restart.max-restarts within restart.window); the upstream is "
					+ "down until " + downUntil + " (restart.cool-down)", null, false, false);
			this.downUntil = downUntil;
		}

		/**
		 * When starting is tried again.
		 * @return the end of the cool-down
		 */
		public Instant downUntil() {
			return this.downUntil;
		}

	}

}
