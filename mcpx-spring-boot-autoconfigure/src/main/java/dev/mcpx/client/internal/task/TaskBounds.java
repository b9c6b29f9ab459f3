package dev.mcpx.client.internal.task;

import java.time.Duration;

/**
 * How long a task is followed.
 *
 * @param silence the longest time without a change of status (the call's timeout)
 * @param total the bound of the whole task (the call's hard cap)
 * @param deadlineNanos when the whole task's bound passes, in {@code System.nanoTime()}
 * @param cancelOnLeaving whether a task is cancelled when a bound passes or the caller is
 * interrupted (a call that gives up), or left running (a caller that only stops waiting)
 */
public record TaskBounds(Duration silence, Duration total, long deadlineNanos, boolean cancelOnLeaving) {

	/**
	 * Bounds starting now.
	 * @param silence the longest time without a change of status
	 * @param total the bound of the whole task
	 * @param cancelOnLeaving whether a task is cancelled when a bound passes or the caller
	 * is interrupted
	 * @return the bounds
	 */
	public static TaskBounds startingNow(Duration silence, Duration total, boolean cancelOnLeaving) {
		return new TaskBounds(silence, total, System.nanoTime() + total.toNanos(), cancelOnLeaving);
	}

	/** The bound of one request: the silence allowed, never past the whole task's bound. */
	Duration requestTimeout(long nowNanos) {
		long left = this.deadlineNanos - nowNanos;
		return (left < this.silence.toNanos()) ? Duration.ofNanos(Math.max(left, 1_000_000)) : this.silence;
	}

}
