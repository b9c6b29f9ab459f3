package dev.mcpx.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.ResultMapper;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.task.TaskState;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;
import tools.jackson.databind.JsonNode;

/**
 * What a client writes to its {@link McpTaskStore} for a task it follows (docs/architecture.md, "The task journal"):
 * a row when the task id arrives, the row again at each status change, and its end once; the end's
 * {@link McpTaskCompletedEvent} is published only when that ending write succeeded, so a task another process took
 * over is published by that process alone. A journal that cannot be written never fails the call: the failure is
 * logged (without the session id) and counted, since the task's survival of this process is then not guaranteed.
 */
final class TaskJournal {

	private static final Log logger = LogFactory.getLog(TaskJournal.class);

	private final String upstream;

	private final McpTaskStore store;

	private final McpEvents events;

	private final Clock clock;

	private final AtomicLong failures = new AtomicLong();

	TaskJournal(String upstream, McpTaskStore store, McpEvents events, Clock clock) {
		this.upstream = upstream;
		this.store = store;
		this.events = events;
		this.clock = clock;
	}

	/** How many writes of the journal failed. */
	long failures() {
		return this.failures.get();
	}

	/**
	 * Journals a task whose id just arrived.
	 * @param tool the tool called
	 * @param arguments the call's arguments, as sent
	 * @param created the task as created
	 * @param session the session it was created in, if any
	 * @return the entry that follows it
	 */
	Entry created(String tool, @Nullable JsonNode arguments, TaskState created, @Nullable SessionState session) {
		Instant now = this.clock.instant();
		String json = (arguments != null) ? arguments.toString() : "{}";
		McpTaskRecord row = McpTaskRecord.created(this.upstream, created.taskId(), tool,
				(session != null) ? session.era() : dev.mcpx.client.model.ProtocolEra.LEGACY, created.status(),
				McpTaskRecord.argumentsHash(json), now, this.store.owner(), now.plus(this.store.lease()))
			.withArguments(json)
			.withTiming(created.ttl(), created.pollInterval())
			.withSession(bound(session));
		if (created.statusMessage() != null) {
			row = row.withStatus(created.status(), created.statusMessage(), now);
		}
		Entry entry = new Entry(row);
		entry.journalled = write("journal", created.taskId(), () -> this.store.create(entry.row));
		return entry;
	}

	/** The session a legacy task is bound to; none for a modern one, or a stdio session without an id. */
	private static McpTaskRecord.@Nullable BoundSession bound(@Nullable SessionState session) {
		if (session == null || session.sessionId() == null) {
			return null;
		}
		JsonNode capabilities = session.capabilities();
		return new McpTaskRecord.BoundSession(session.sessionId(), session.protocolVersion(),
				(capabilities != null) ? capabilities.toString() : "{}");
	}

	/** Runs a write of the journal; false, logged and counted, when it failed. */
	private boolean write(String what, String taskId, Runnable write) {
		try {
			write.run();
			return true;
		}
		catch (McpTaskStoreException ex) {
			this.failures.incrementAndGet();
			logger.warn("[" + this.upstream + "] task " + taskId + " could not be written to the task journal (" + what
					+ "); it is not guaranteed to outlive this process: " + ex.getMessage());
			return false;
		}
	}

	/**
	 * One followed task's row.
	 */
	final class Entry {

		private volatile McpTaskRecord row;

		/** Whether the row was written: a task the journal never had is ended and published here alone. */
		private volatile boolean journalled;

		private Entry(McpTaskRecord row) {
			this.row = row;
		}

		/** A status change, written and the lease renewed. */
		void changed(TaskState state) {
			Instant now = TaskJournal.this.clock.instant();
			McpTaskRecord next = this.row.withStatus(state.status(), state.statusMessage(), now)
				.withTiming(state.ttl(), state.pollInterval())
				.withLease(TaskJournal.this.store.owner(), now.plus(TaskJournal.this.store.lease()));
			this.row = next;
			if (!next.status().isTerminal()) {
				write("status", next.taskId(), () -> TaskJournal.this.store.update(next));
			}
		}

		/**
		 * The task's result arrived: ends the row, and publishes the outcome when this process ended it.
		 * @param result the {@code CallToolResult}
		 */
		void completed(JsonNode result) {
			CallToolResult mapped = ResultMapper.callToolResult(result);
			end(mapped.isError() ? McpTaskStatus.FAILED : McpTaskStatus.COMPLETED, mapped, null, result.toString());
		}

		/**
		 * Following the task ended in a failure: lost, cancelled (the caller's interrupt or bound cancelled it), or
		 * anything else, after which the row is given back to the journal for another attempt.
		 * @param failure the failure the caller gets
		 */
		void failed(McpException failure) {
			if (failure instanceof McpTaskLostException) {
				end(McpTaskStatus.LOST, null, failure, null);
			}
			else if (this.row.status() == McpTaskStatus.CANCELLED) {
				// the server cancelled it: the last status the follower saw says so
				end(McpTaskStatus.CANCELLED, null, failure, null);
			}
			else if (failure instanceof McpCancelledException || failure instanceof McpTimeoutException) {
				end(McpTaskStatus.CANCELLED, null, failure, null);
			}
			else {
				McpTaskRecord current = this.row;
				write("release", current.taskId(),
						() -> TaskJournal.this.store.release(current.upstream(), current.taskId()));
			}
		}

		private void end(McpTaskStatus status, @Nullable CallToolResult result, @Nullable McpException failure,
				@Nullable String outcome) {
			Instant now = TaskJournal.this.clock.instant();
			McpTaskRecord current = this.row;
			McpTaskRecord ended = current.withOutcome(status,
					(failure != null) ? failure.getMessage() : current.statusMessage(), outcome, now);
			// published unless another process took the task over (it publishes then); a journal that fails
			// cannot say so, and this process, which followed the task to its end, publishes
			boolean[] mine = { true };
			if (this.journalled) {
				write("outcome", current.taskId(), () -> mine[0] = TaskJournal.this.store.update(ended));
			}
			if (!mine[0]) {
				return;
			}
			Duration took = Duration.between(current.createdAt(), now);
			TaskJournal.this.events.publish(new McpTaskCompletedEvent(current.upstream(), current.taskId(),
					current.tool(), status, result, failure, took.isNegative() ? Duration.ZERO : took, false));
		}

	}

}
