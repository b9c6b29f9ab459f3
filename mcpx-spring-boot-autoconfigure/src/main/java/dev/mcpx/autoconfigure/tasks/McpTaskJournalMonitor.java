package dev.mcpx.autoconfigure.tasks;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.error.McpTaskStoreVersionException;

/**
 * Watches the task journal as every process writes it (each client's writes and the resumption's), so that health
 * can say when it cannot be written: a task started then still runs and its call still returns, but it would not
 * outlive the application, and its outcome is not published as an event (docs/architecture.md, "The task journal").
 * The clients and the resumption are given {@link #watch watched} views of the {@link McpTaskStore} bean; the bean
 * itself is left as it is.
 */
public final class McpTaskJournalMonitor {

	private final Clock clock;

	private final AtomicLong failures = new AtomicLong();

	private volatile @Nullable Instant lastWrite;

	private volatile @Nullable Instant lastFailureAt;

	private volatile @Nullable String lastFailure;

	/**
	 * Creates a monitor that has seen nothing yet.
	 */
	public McpTaskJournalMonitor() {
		this(Clock.systemUTC());
	}

	McpTaskJournalMonitor(Clock clock) {
		this.clock = clock;
	}

	/**
	 * A view of a journal whose every read and write this monitor sees.
	 * @param store the journal
	 * @return the watched view, which does what the journal does and throws what it throws
	 */
	public McpTaskStore watch(McpTaskStore store) {
		return (store instanceof WatchedTaskStore watched && watched.monitor() == this) ? store
				: new WatchedTaskStore(store, this);
	}

	/**
	 * What the journal has done so far.
	 * @return a snapshot
	 */
	public State state() {
		return new State(this.failures.get(), this.lastWrite, this.lastFailureAt, this.lastFailure);
	}

	void written() {
		this.lastWrite = this.clock.instant();
	}

	void failed(String operation, RuntimeException ex) {
		if (ex instanceof McpTaskStoreVersionException) {
			return; // a row of a newer mcpx: the journal works, that row is left alone
		}
		this.failures.incrementAndGet();
		// an McpTaskStoreException names the operation and the task, never a value of the row; any other
		// exception (a journal of the application's own) is shown by its type only
		this.lastFailure = operation + " failed: "
				+ ((ex instanceof McpTaskStoreException) ? ex.getMessage() : ex.getClass().getName());
		this.lastFailureAt = this.clock.instant();
	}

	/**
	 * What the journal has done so far.
	 *
	 * @param failures how many reads and writes failed since the application started
	 * @param lastWrite when a write last succeeded, if one did
	 * @param lastFailureAt when a read or write last failed, if one did
	 * @param lastFailure which operation failed last, and why (no value of a row)
	 */
	public record State(long failures, @Nullable Instant lastWrite, @Nullable Instant lastFailureAt,
			@Nullable String lastFailure) {

		/**
		 * Whether the journal can be written, as far as is known: nothing failed, or a write succeeded since the last
		 * failure.
		 * @return false when the last thing known of the journal is a failure
		 */
		public boolean writable() {
			Instant failed = this.lastFailureAt;
			Instant wrote = this.lastWrite;
			return failed == null || (wrote != null && wrote.isAfter(failed));
		}

	}

}
