package dev.mcpx.client.recovery;

import java.time.Duration;
import java.util.Objects;

/**
 * When the server process of a stdio upstream is started again after it exited
 * unexpectedly (2026-07-28 basic/transports/stdio §Unexpected Termination: the client
 * SHOULD restart it): after a backoff that doubles per crash in a row, and at most
 * {@link #maxRestarts()} times within {@link #window()}; past that the upstream is down
 * until {@link #coolDown()} has passed, and calls fail fast meanwhile. Never a hot loop of
 * spawning. Immutable; build one with {@link #custom()} or {@link #from(ProcessRestartPolicy)}.
 */
public final class ProcessRestartPolicy {

	/** The wait before the first restart after a crash: short enough to be unnoticed. */
	public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(100);

	/** The longest wait before a restart, however many crashes came in a row. */
	public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);

	/** Restarts allowed within the window before the upstream is declared down. */
	public static final int DEFAULT_MAX_RESTARTS = 5;

	/** The period over which restarts are counted. */
	public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);

	/** How long a down upstream stays down before starting is tried again. */
	public static final Duration DEFAULT_COOL_DOWN = Duration.ofMinutes(1);

	private static final ProcessRestartPolicy DEFAULTS = custom().build();

	private final Duration initialBackoff;

	private final Duration maxBackoff;

	private final int maxRestarts;

	private final Duration window;

	private final Duration coolDown;

	private ProcessRestartPolicy(Builder builder) {
		this.initialBackoff = builder.initialBackoff;
		this.maxBackoff = builder.maxBackoff;
		this.maxRestarts = builder.maxRestarts;
		this.window = builder.window;
		this.coolDown = builder.coolDown;
	}

	/**
	 * The built-in policy.
	 * @return the defaults
	 */
	public static ProcessRestartPolicy ofDefaults() {
		return DEFAULTS;
	}

	/**
	 * A builder starting from the defaults.
	 * @return a builder
	 */
	public static Builder custom() {
		return new Builder();
	}

	/**
	 * A builder starting from another policy.
	 * @param base the policy to start from
	 * @return a builder
	 */
	public static Builder from(ProcessRestartPolicy base) {
		return new Builder().initialBackoff(base.initialBackoff)
			.maxBackoff(base.maxBackoff)
			.maxRestarts(base.maxRestarts)
			.window(base.window)
			.coolDown(base.coolDown);
	}

	/**
	 * The wait before the first restart of a crash series.
	 * @return the initial backoff
	 */
	public Duration initialBackoff() {
		return this.initialBackoff;
	}

	/**
	 * The longest wait before a restart.
	 * @return the maximum backoff
	 */
	public Duration maxBackoff() {
		return this.maxBackoff;
	}

	/**
	 * Restarts allowed within the window.
	 * @return the restart budget
	 */
	public int maxRestarts() {
		return this.maxRestarts;
	}

	/**
	 * The period over which restarts are counted.
	 * @return the window
	 */
	public Duration window() {
		return this.window;
	}

	/**
	 * How long the upstream stays down once its budget is spent.
	 * @return the cool-down
	 */
	public Duration coolDown() {
		return this.coolDown;
	}

	/**
	 * The backoff before the given restart of a series of crashes in a row.
	 * @param crashesInARow 1 for the first crash of a series
	 * @return the initial backoff doubled per earlier crash, at most the maximum
	 */
	public Duration backoff(int crashesInARow) {
		Duration backoff = this.initialBackoff;
		for (int i = 1; i < crashesInARow && backoff.compareTo(this.maxBackoff) < 0; i++) {
			backoff = backoff.multipliedBy(2);
		}
		return (backoff.compareTo(this.maxBackoff) > 0) ? this.maxBackoff : backoff;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof ProcessRestartPolicy that && this.initialBackoff.equals(that.initialBackoff)
				&& this.maxBackoff.equals(that.maxBackoff) && this.maxRestarts == that.maxRestarts
				&& this.window.equals(that.window) && this.coolDown.equals(that.coolDown);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.initialBackoff, this.maxBackoff, this.maxRestarts, this.window, this.coolDown);
	}

	@Override
	public String toString() {
		return "ProcessRestartPolicy[initialBackoff=" + this.initialBackoff + ", maxBackoff=" + this.maxBackoff
				+ ", maxRestarts=" + this.maxRestarts + ", window=" + this.window + ", coolDown=" + this.coolDown
				+ "]";
	}

	/**
	 * Builds a {@link ProcessRestartPolicy}; {@link #build()} checks the values.
	 */
	public static final class Builder {

		private Duration initialBackoff = DEFAULT_INITIAL_BACKOFF;

		private Duration maxBackoff = DEFAULT_MAX_BACKOFF;

		private int maxRestarts = DEFAULT_MAX_RESTARTS;

		private Duration window = DEFAULT_WINDOW;

		private Duration coolDown = DEFAULT_COOL_DOWN;

		private Builder() {
		}

		/**
		 * Sets the wait before the first restart of a crash series.
		 * @param initialBackoff zero or more
		 * @return this builder
		 */
		public Builder initialBackoff(Duration initialBackoff) {
			this.initialBackoff = Objects.requireNonNull(initialBackoff, "initialBackoff");
			return this;
		}

		/**
		 * Sets the longest wait before a restart.
		 * @param maxBackoff at least the initial backoff
		 * @return this builder
		 */
		public Builder maxBackoff(Duration maxBackoff) {
			this.maxBackoff = Objects.requireNonNull(maxBackoff, "maxBackoff");
			return this;
		}

		/**
		 * Sets the restarts allowed within the window.
		 * @param maxRestarts zero or more
		 * @return this builder
		 */
		public Builder maxRestarts(int maxRestarts) {
			this.maxRestarts = maxRestarts;
			return this;
		}

		/**
		 * Sets the period over which restarts are counted.
		 * @param window positive
		 * @return this builder
		 */
		public Builder window(Duration window) {
			this.window = Objects.requireNonNull(window, "window");
			return this;
		}

		/**
		 * Sets how long the upstream stays down once its budget is spent.
		 * @param coolDown positive
		 * @return this builder
		 */
		public Builder coolDown(Duration coolDown) {
			this.coolDown = Objects.requireNonNull(coolDown, "coolDown");
			return this;
		}

		/**
		 * Builds the policy.
		 * @return the policy
		 * @throws IllegalArgumentException naming the first invalid value
		 */
		public ProcessRestartPolicy build() {
			if (this.initialBackoff.isNegative()) {
				throw new IllegalArgumentException("The initial backoff must not be negative, was " + this.initialBackoff);
			}
			if (this.maxBackoff.compareTo(this.initialBackoff) < 0) {
				throw new IllegalArgumentException("The maximum backoff (" + this.maxBackoff
						+ ") must not be less than the initial backoff (" + this.initialBackoff + ")");
			}
			if (this.maxRestarts < 0) {
				throw new IllegalArgumentException("The maximum number of restarts must not be negative, was "
						+ this.maxRestarts);
			}
			if (this.window.isZero() || this.window.isNegative()) {
				throw new IllegalArgumentException("The restart window must be positive, was " + this.window);
			}
			if (this.coolDown.isZero() || this.coolDown.isNegative()) {
				throw new IllegalArgumentException("The cool-down must be positive, was " + this.coolDown);
			}
			return new ProcessRestartPolicy(this);
		}

	}

}
