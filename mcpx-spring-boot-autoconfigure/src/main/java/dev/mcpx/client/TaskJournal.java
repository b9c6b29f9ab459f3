package dev.mcpx.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.event.McpTaskCreatedEvent;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.task.FollowedTask;
import dev.mcpx.client.internal.task.TaskFollower;
import dev.mcpx.client.internal.task.TaskState;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes the tasks a client starts to its {@link McpTaskStore}, as the store's Javadoc asks: a row
 * when the task id arrives (held by this process, bound to the task's session), an update at each
 * change of status, a renewed lease while the task is polled, and the outcome once, with its
 * {@link McpTaskCompletedEvent} published only when that ending write succeeded. A journal that
 * cannot be written never fails the call: it is logged and counted ({@link #failures()}), and the
 * task goes on without its row. What the outside sees of a task on the way is published here too:
 * {@link McpTaskCreatedEvent} when its id arrives, {@link McpTaskResumedEvent} when the server
 * answers about it after something broke its following.
 */
final class TaskJournal {

	private static final Log logger = LogFactory.getLog(TaskJournal.class);

	private final String upstream;

	private final @Nullable McpTaskStore store;

	private final McpEvents events;

	private final JsonRpc jsonRpc;

	private final Clock clock;

	private final AtomicLong failures = new AtomicLong();

	TaskJournal(String upstream, @Nullable McpTaskStore store, McpEvents events, JsonRpc jsonRpc, Clock clock) {
		this.upstream = upstream;
		this.store = store;
		this.events = events;
		this.jsonRpc = jsonRpc;
		this.clock = clock;
	}

	/**
	 * How many writes of the journal failed.
	 * @return the count
	 */
	long failures() {
		return this.failures.get();
	}

	/**
	 * An entry that writes nothing: for a task whose row is not this client's to write.
	 * @param task the task, whose resumptions it still reports
	 * @return the entry
	 */
	Entry none(FollowedTask task) {
		return new Entry(task, null, null, this.clock.instant());
	}

	/**
	 * Writes the row of a task whose id just arrived.
	 * @param task the task
	 * @param arguments the arguments as sent
	 * @return the row's entry, to write its changes to; without a journal, one that writes nothing
	 */
	Entry opened(FollowedTask task, JsonNode arguments) {
		Entry entry = written(task, arguments);
		TaskState state = task.last();
		this.events.publish(new McpTaskCreatedEvent(this.upstream, state.taskId(), task.tool(), state.status(),
				state.ttl(), entry.row != null));
		return entry;
	}

	private Entry written(FollowedTask task, JsonNode arguments) {
		McpTaskStore journal = this.store;
		if (journal == null) {
			return new Entry(task, null, null, this.clock.instant());
		}
		Instant now = this.clock.instant();
		TaskState state = task.last();
		SessionState session = task.session();
		McpTaskRecord row = McpTaskRecord
			.created(this.upstream, state.taskId(), task.tool(), task.era(), state.status(),
					McpTaskRecord.argumentsHash(this.jsonRpc.mapper().writeValueAsString(arguments)), now,
					journal.owner(), now.plus(journal.lease()))
			.withTiming(state.ttl(), state.pollInterval())
			.withSession(bound(session));
		try {
			journal.create(row);
			return new Entry(task, journal, row, now);
		}
		catch (RuntimeException ex) {
			failed("write task " + state.taskId(), ex);
			return new Entry(task, null, null, now);
		}
	}

	/** The session a row is bound to: the task's, when it has an id. */
	private McpTaskRecord.@Nullable BoundSession bound(@Nullable SessionState session) {
		if (session == null || session.sessionId() == null) {
			return null;
		}
		JsonNode capabilities = session.capabilities();
		return new McpTaskRecord.BoundSession(session.sessionId(), session.protocolVersion(),
				(capabilities != null) ? this.jsonRpc.mapper().writeValueAsString(capabilities) : "{}");
	}

	private void failed(String what, RuntimeException ex) {
		long count = this.failures.incrementAndGet();
		// the restart guarantee of this task is void: say so, without failing the call
		logger.warn("[" + this.upstream + "] could not " + what + " in the task journal (" + count
				+ " failures so far); the task goes on, but would not outlive this process: " + ex.getMessage());
	}

	/** The row of one task, while this process holds it. */
	final class Entry {

		private final FollowedTask task;

		private final @Nullable McpTaskStore journal;

		private volatile @Nullable McpTaskRecord row;

		private final Instant started;

		private volatile Instant renewed;

		Entry(FollowedTask task, @Nullable McpTaskStore journal, @Nullable McpTaskRecord row, Instant started) {
			this.task = task;
			this.journal = journal;
			this.row = row;
			this.started = started;
			this.renewed = started;
		}

		/**
		 * What the follower tells: each change to the caller, each poll to this row.
		 * @param onChange hears each change of status or message
		 * @return the listener
		 */
		TaskFollower.Listener listening(Consumer<TaskState> onChange) {
			return new TaskFollower.Listener() {

				@Override
				public void changed(TaskState state) {
					onChange.accept(state);
				}

				@Override
				public void polled(TaskState state, boolean changed) {
					Entry.this.polled(state, changed);
				}

			};
		}

		/**
		 * A poll answered: writes a change of status, else renews the lease when a third of it
		 * passed.
		 * @param state the task's state
		 * @param changed whether its status or message changed
		 */
		void polled(TaskState state, boolean changed) {
			resumed();
			McpTaskStore store = this.journal;
			McpTaskRecord current = this.row;
			if (store == null || current == null) {
				return;
			}
			Instant now = TaskJournal.this.clock.instant();
			try {
				if (changed && !state.status().isTerminal()) {
					McpTaskRecord next = current.withStatus(state.status(), state.statusMessage(), now)
						.withTiming(state.ttl(), state.pollInterval());
					keep(store.update(next) ? next : null);
				}
				else if (Duration.between(this.renewed, now).compareTo(store.lease().dividedBy(3)) >= 0) {
					if (store.renew(current.upstream(), current.taskId(), now)) {
						this.renewed = now;
					}
					else {
						keep(null);
					}
				}
			}
			catch (RuntimeException ex) {
				failed("update task " + current.taskId(), ex);
			}
		}

		/**
		 * The task ended: writes its outcome and, when that write succeeded, publishes it.
		 * @param status how it ended
		 * @param statusMessage the server's last message
		 * @param result the result, if any
		 * @param failure why there is none
		 */
		void ended(McpTaskStatus status, @Nullable String statusMessage, @Nullable CallToolResult result,
				@Nullable McpException failure) {
			if (status != McpTaskStatus.LOST) {
				resumed(); // the server answered about it: a resumption before, if any, is told first
			}
			McpTaskStore store = this.journal;
			McpTaskRecord current = this.row;
			if (store == null || current == null) {
				return;
			}
			Instant now = TaskJournal.this.clock.instant();
			try {
				boolean ended = store.update(current.withOutcome(status, statusMessage, outcome(result, failure), now));
				keep(null);
				if (ended) {
					TaskJournal.this.events.publish(new McpTaskCompletedEvent(TaskJournal.this.upstream,
							current.taskId(), current.tool(), status, result, failure,
							Duration.between(this.started, now), false));
				}
			}
			catch (RuntimeException ex) {
				failed("end task " + current.taskId(), ex);
			}
		}

		/** Tells once that the server answered about the task after something broke its following. */
		private void resumed() {
			McpTaskResumedEvent.Cause cause = this.task.resumedAfter();
			if (cause != null) {
				TaskJournal.this.events.publish(new McpTaskResumedEvent(TaskJournal.this.upstream,
						this.task.taskId(), this.task.tool(), cause));
			}
		}

		/** Another process took the row over, or it ended: stop writing it. */
		private void keep(@Nullable McpTaskRecord next) {
			this.row = next;
		}

		private @Nullable String outcome(@Nullable CallToolResult result, @Nullable McpException failure) {
			ObjectNode json;
			if (result != null) {
				json = TaskJournal.this.jsonRpc.mapper().valueToTree(result);
			}
			else if (failure != null) {
				json = TaskJournal.this.jsonRpc.mapper().createObjectNode();
				json.putObject("error").put("message", failure.getMessage()).put("type", failure.getClass().getSimpleName());
			}
			else {
				return null;
			}
			return TaskJournal.this.jsonRpc.mapper().writeValueAsString(json);
		}

	}

	/**
	 * How a followed task ended, for its row: the server's terminal status, or the result's
	 * (a result fetched on {@code input_required} arrives before a poll saw the end).
	 * @param last the task's last known state
	 * @param result the result
	 * @return the terminal status
	 */
	static McpTaskStatus endedWith(TaskState last, CallToolResult result) {
		if (last.status().isTerminal()) {
			return last.status();
		}
		return result.isError() ? McpTaskStatus.FAILED : McpTaskStatus.COMPLETED;
	}

	/**
	 * The status a failure ends a task with, absent when the task may still be running.
	 * @param last the task's last known state
	 * @param failure the failure
	 * @return the terminal status, or {@code null} to leave the row to its lease
	 */
	static @Nullable McpTaskStatus endedBy(TaskState last, McpException failure) {
		if (failure instanceof McpTaskLostException) {
			return McpTaskStatus.LOST;
		}
		return last.status().isTerminal() ? last.status() : null;
	}

}
