package dev.mcpx.client;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.McpProgress;

/**
 * Options of one tool call: progress, timeouts and request metadata. Immutable; built with
 * {@link #builder()}.
 *
 * <pre>{@code
 * McpCallOptions options = McpCallOptions.builder()
 *     .onProgress((progress) -> log.info("{} of {}", progress.progress(), progress.total()))
 *     .timeout(Duration.ofSeconds(20))     // silence allowed between two progress notifications
 *     .maxTotalTimeout(Duration.ofMinutes(5))
 *     .build();
 * }</pre>
 *
 * A call with options carries a progress token (2025-11-25 basic/utilities/progress), so a
 * server may report progress; each notification reaches {@link Builder#onProgress(Consumer)}
 * and, unless {@link Builder#resetTimeoutOnProgress(boolean)} is off, starts the timeout
 * afresh: a tool still reporting progress is alive. {@link Builder#maxTotalTimeout(Duration)}
 * bounds the call whatever the progress.
 */
public final class McpCallOptions {

	/** The hard cap of a call is this many times its timeout unless set. */
	public static final int DEFAULT_MAX_TOTAL_FACTOR = 10;

	private final @Nullable Consumer<McpProgress> onProgress;

	private final @Nullable Duration timeout;

	private final boolean resetTimeoutOnProgress;

	private final @Nullable Duration maxTotalTimeout;

	private final Map<String, Object> meta;

	private final boolean leaveTaskRunning;

	private McpCallOptions(Builder builder) {
		this.leaveTaskRunning = builder.leaveTaskRunning;
		this.onProgress = builder.onProgress;
		this.timeout = builder.timeout;
		this.resetTimeoutOnProgress = builder.resetTimeoutOnProgress;
		this.maxTotalTimeout = builder.maxTotalTimeout;
		this.meta = Collections.unmodifiableMap(new LinkedHashMap<>(builder.meta));
	}

	/**
	 * Starts building options.
	 * @return a builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Options that change nothing: the client's request timeout, no progress consumer.
	 * @return the defaults
	 */
	public static McpCallOptions defaults() {
		return builder().build();
	}

	/**
	 * Receives the call's progress notifications, absent for none.
	 * @return the consumer
	 */
	public @Nullable Consumer<McpProgress> onProgress() {
		return this.onProgress;
	}

	/**
	 * The bound of the call's silence, absent for the client's request timeout.
	 * @return the timeout
	 */
	public @Nullable Duration timeout() {
		return this.timeout;
	}

	/**
	 * Whether each progress notification starts the timeout afresh.
	 * @return {@code true} by default
	 */
	public boolean resetTimeoutOnProgress() {
		return this.resetTimeoutOnProgress;
	}

	/**
	 * The hard cap of the call, absent for {@value #DEFAULT_MAX_TOTAL_FACTOR} times its timeout.
	 * @return the cap
	 */
	public @Nullable Duration maxTotalTimeout() {
		return this.maxTotalTimeout;
	}

	/**
	 * The cap for a call whose timeout is the given one.
	 * @param effectiveTimeout the call's timeout
	 * @return the cap, never below the timeout
	 */
	public Duration maxTotalTimeout(Duration effectiveTimeout) {
		Duration cap = (this.maxTotalTimeout != null) ? this.maxTotalTimeout
				: effectiveTimeout.multipliedBy(DEFAULT_MAX_TOTAL_FACTOR);
		return (cap.compareTo(effectiveTimeout) < 0) ? effectiveTimeout : cap;
	}

	/**
	 * Entries added to the request's {@code _meta} (2025-11-25 basic §_meta).
	 * @return the entries, possibly empty
	 */
	public Map<String, Object> meta() {
		return this.meta;
	}

	/**
	 * Whether a call that became a task leaves it running when the call's timeout passes or its
	 * thread is interrupted, rather than cancelling it.
	 * @return {@code false} by default
	 */
	public boolean leaveTaskRunning() {
		return this.leaveTaskRunning;
	}

	@Override
	public String toString() {
		return "McpCallOptions[leaveTaskRunning=" + this.leaveTaskRunning + ", timeout=" + this.timeout + ", resetTimeoutOnProgress=" + this.resetTimeoutOnProgress
				+ ", maxTotalTimeout=" + this.maxTotalTimeout + ", onProgress=" + (this.onProgress != null)
				+ ", meta=" + this.meta.keySet() + "]";
	}

	/**
	 * Builds {@link McpCallOptions}.
	 */
	public static final class Builder {

		private @Nullable Consumer<McpProgress> onProgress;

		private @Nullable Duration timeout;

		private boolean resetTimeoutOnProgress = true;

		private @Nullable Duration maxTotalTimeout;

		private final Map<String, Object> meta = new LinkedHashMap<>();

		private boolean leaveTaskRunning;

		private Builder() {
		}

		/**
		 * Sets what becomes of a call's task (2025-11-25 basic/utilities/tasks) when the call's
		 * timeout passes or its thread is interrupted: by default it is cancelled
		 * ({@code tasks/cancel}); left running, the call fails with
		 * {@link dev.mcpx.client.error.McpTaskStillRunningException}, which names the task.
		 * @param leave {@code true} to leave the task running
		 * @return this builder
		 */
		public Builder leaveTaskRunning(boolean leave) {
			this.leaveTaskRunning = leave;
			return this;
		}

		/**
		 * Receives each progress notification of the call, on the thread that read it; it
		 * must not block. An exception it throws is logged and ignored.
		 * @param onProgress the consumer
		 * @return this builder
		 */
		public Builder onProgress(Consumer<McpProgress> onProgress) {
			this.onProgress = Objects.requireNonNull(onProgress, "onProgress");
			return this;
		}

		/**
		 * Sets how long the call may go without a response (or, with
		 * {@link #resetTimeoutOnProgress(boolean)}, without progress).
		 * @param timeout a positive duration; default the client's request timeout
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = positive(timeout, "timeout");
			return this;
		}

		/**
		 * Sets whether each progress notification starts the timeout afresh.
		 * @param reset {@code false} to bound the call by its timeout alone; default {@code true}
		 * @return this builder
		 */
		public Builder resetTimeoutOnProgress(boolean reset) {
			this.resetTimeoutOnProgress = reset;
			return this;
		}

		/**
		 * Sets the hard cap of the call, however much progress it reports.
		 * @param maxTotalTimeout a positive duration; default {@value #DEFAULT_MAX_TOTAL_FACTOR} times the timeout
		 * @return this builder
		 */
		public Builder maxTotalTimeout(Duration maxTotalTimeout) {
			this.maxTotalTimeout = positive(maxTotalTimeout, "maximum total timeout");
			return this;
		}

		/**
		 * Adds entries to the request's {@code _meta}; the progress token is the client's.
		 * @param meta the entries, serialized as JSON
		 * @return this builder
		 */
		public Builder meta(Map<String, ?> meta) {
			Objects.requireNonNull(meta, "meta");
			meta.forEach((key, value) -> {
				if ("progressToken".equals(key)) {
					throw new IllegalArgumentException("The progress token of a call is set by the client");
				}
				this.meta.put(Objects.requireNonNull(key, "meta key"), value);
			});
			return this;
		}

		/**
		 * Builds the options.
		 * @return the options
		 */
		public McpCallOptions build() {
			return new McpCallOptions(this);
		}

		private static Duration positive(Duration value, String what) {
			if (value == null || value.isZero() || value.isNegative()) {
				throw new IllegalArgumentException("The " + what + " must be positive, was " + value);
			}
			return value;
		}

	}

}
