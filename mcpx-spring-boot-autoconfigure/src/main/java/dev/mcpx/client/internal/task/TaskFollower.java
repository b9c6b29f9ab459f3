package dev.mcpx.client.internal.task;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpInputRequiredException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpTaskCancelledException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTaskStillRunningException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.InputRounds;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;

/**
 * Follows a task to its outcome through its handle, never through its request (2025-11-25
 * basic/utilities/tasks; 2026-07-28 tasks extension; docs/architecture.md, "Tasks"): polls
 * {@code tasks/get} at the server's {@code pollInterval} (kept within {@link #MIN_POLL_INTERVAL}
 * and {@link #MAX_POLL_INTERVAL}). A 2025-11-25 task's outcome is asked of {@code tasks/result}
 * once the task is terminal, and at once when it needs input (§Input Required Status, rule 3:
 * the server asks its questions on that stream, and the client's input handler answers them); a
 * 2026-07-28 task's outcome and questions come inline in {@code tasks/get}, and the answers go
 * back with {@code tasks/update} ({@link TaskExtension}).
 * <p>
 * Once the task id is known no failure sends the tool call again: a lost poll, a poll that
 * timed out, a 5xx, an upstream that cannot be reached or a failed re-initialize are
 * followed by the next poll; a session that expired is replaced and the task asked for once
 * in the new session. Only the server's word that it does not know the task
 * ({@code -32602}) ends it, as {@link McpTaskLostException}. Each poll is one request of
 * the recovery loop, under its bound; how long the polling goes on is bounded by the
 * caller's {@link TaskBounds}.
 */
public final class TaskFollower {

	private static final Log logger = LogFactory.getLog(TaskFollower.class);

	/** The shortest wait between polls: a server that asks for 0 must not make the client spin. */
	public static final Duration MIN_POLL_INTERVAL = Duration.ofMillis(100);

	/** The longest wait between polls: a server that asks for a day must not hide an outcome that long. */
	public static final Duration MAX_POLL_INTERVAL = Duration.ofSeconds(30);

	/** The wait between polls when the server suggests none. */
	public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);

	/** The bound of the {@code tasks/cancel} sent when the caller leaves: it is leaving. */
	public static final Duration CANCEL_BOUND = Duration.ofSeconds(2);

	private final String upstream;

	private final TaskExtension extension;

	private final TaskRequests requests;

	/**
	 * Creates the follower of one client's tasks.
	 * @param upstream the upstream name
	 * @param executor the recovery loop every poll goes through
	 * @param jsonRpc the client's codec
	 * @param inputs answers a 2026-07-28 task's input requests through the application's handler
	 */
	public TaskFollower(String upstream, RequestExecutor executor, JsonRpc jsonRpc, InputRounds inputs) {
		this.upstream = upstream;
		this.extension = new TaskExtension(upstream, inputs, jsonRpc);
		this.requests = new TaskRequests(upstream, executor, jsonRpc, this.extension);
	}

	/**
	 * Follows a task in the calling thread until its outcome, or until a bound passes.
	 * Interrupting the thread cancels the task ({@code tasks/cancel}) and throws
	 * {@link McpCancelledException}.
	 * @param task the task
	 * @param bounds how long to follow it
	 * @param listener hears each answered poll and each change of status or status message,
	 * the first state included
	 * @return the tool call's result ({@code tasks/result}: exactly what the call would have
	 * returned)
	 * @throws McpTaskLostException when the server no longer knows the task
	 * @throws McpTimeoutException when a bound passed; the task is cancelled first when the
	 * bounds say so
	 * @throws McpCancelledException when the thread was interrupted; the task is cancelled first
	 * when the bounds say so
	 * @throws McpTaskCancelledException when the server cancelled the task
	 * @throws McpInputRequiredException when a 2026-07-28 task asks for input the client cannot
	 * answer; the task is cancelled first when the bounds say so
	 */
	public JsonNode follow(FollowedTask task, TaskBounds bounds, Listener listener) {
		try {
			return followUntilOutcome(task, bounds, listener);
		}
		catch (McpCancelledException ex) {
			// 2025-11-25 basic/utilities/tasks §Task Cancellation: a call that leaves takes its task along.
			if (bounds.cancelOnLeaving()) {
				cancel(task);
			}
			throw (ex.method().equals(McpMethods.TOOLS_CALL)) ? ex
					: new McpCancelledException(this.upstream, McpMethods.TOOLS_CALL, ex);
		}
		catch (McpInputRequiredException ex) {
			// a question no one here can answer would hold the task until its ttl
			if (bounds.cancelOnLeaving()) {
				cancel(task);
			}
			throw ex;
		}
	}

	private JsonNode followUntilOutcome(FollowedTask task, TaskBounds bounds, Listener listener) {
		FollowProgress progress = start(task, bounds, listener);
		while (true) {
			JsonNode outcome = settle(progress);
			if (outcome != null) {
				return outcome;
			}
			pause(delay(progress));
			pollOnce(progress);
		}
	}

	/**
	 * Starts following a task: the listener hears its first state.
	 * @param task the task
	 * @param bounds how long to follow it
	 * @param listener hears what following finds
	 * @return what following has found so far, for the steps that follow
	 */
	FollowProgress start(FollowedTask task, TaskBounds bounds, Listener listener) {
		listener.changed(task.last());
		return new FollowProgress(task, bounds, listener, System.nanoTime());
	}

	/**
	 * What the task's last known state calls for before the next poll: its outcome when it has
	 * one, the answers to its questions when it asks some.
	 * @return the outcome, absent to poll again
	 */
	@Nullable JsonNode settle(FollowProgress progress) {
		FollowedTask task = progress.task();
		TaskState last = task.last();
		if (last.status() == McpTaskStatus.CANCELLED) {
			throw new McpTaskCancelledException(this.upstream, last.taskId(), task.tool(), last.statusMessage(),
					task.cancelAsked());
		}
		if (task.era() == ProtocolEra.MODERN) {
			JsonNode inline = this.extension.outcome(task, last);
			if (inline != null) {
				return inline;
			}
			McpException unanswered = this.requests.answerInput(task, progress.bounds());
			if (unanswered != null) {
				progress.failed(unanswered);
			}
		}
		else if (last.status().isTerminal() || last.status() == McpTaskStatus.INPUT_REQUIRED) {
			TaskRequests.Outcome outcome = this.requests.result(task, progress.bounds());
			if (outcome.result() != null) {
				return outcome.result();
			}
			progress.failed(outcome.failure());
		}
		return null;
	}

	/** The wait before the next poll: the server's interval, bounded, never past a bound. */
	Duration delay(FollowProgress progress) {
		return pollDelay(progress.task().last(), progress.bounds(), progress.lastChange());
	}

	/**
	 * Polls once, tells the listener, and judges the bounds when nothing changed (after the
	 * poll: the wait may have ended right at one).
	 * @throws McpTimeoutException when a bound passed
	 */
	void pollOnce(FollowProgress progress) {
		FollowedTask task = progress.task();
		TaskState last = task.last();
		Poll poll = refresh(task, progress.bounds().requestTimeout(System.nanoTime()));
		TaskState next = poll.state();
		if (next == null) {
			progress.failed(poll.failure());
			checkBounds(task, progress.bounds(), progress.lastChange(), System.nanoTime(), progress.lastFailure());
			return;
		}
		boolean changed = next.changedFrom(last);
		progress.listener().polled(next, changed);
		if (changed) {
			progress.changed(System.nanoTime());
			progress.listener().changed(next);
		}
		else {
			checkBounds(task, progress.bounds(), progress.lastChange(), System.nanoTime(), progress.lastFailure());
		}
	}

	/**
	 * Asks the server for the task's state once, in its session (and once in the new session
	 * after that expired).
	 * @param task the task
	 * @param timeout the bound of the poll
	 * @return the state, or the failure after which polling may go on
	 * @throws McpTaskLostException when the server no longer knows the task
	 */
	public Poll poll(FollowedTask task, Duration timeout) {
		try {
			JsonNode answer = this.requests.inItsSession(task, McpMethods.TASKS_GET, this.requests.params(task), timeout);
			return new Poll((task.era() == ProtocolEra.MODERN) ? TaskState.detailed(this.upstream, answer)
					: TaskState.of(this.upstream, answer, "the tasks/get answer"), null);
		}
		catch (McpCancelledException | McpTaskLostException | McpProtocolException ex) {
			throw ex;
		}
		catch (McpException ex) {
			if (!TaskRequests.transient_(ex)) {
				throw ex;
			}
			logger.debug("[" + this.upstream + "] polling task " + task.taskId() + " failed, polling again: "
					+ ex.getMessage());
			task.broken(TaskRequests.brokenBy(ex));
			return new Poll(null, ex);
		}
	}

	/**
	 * Asks the server for the task's state once and keeps it as the task's last known state.
	 * @param task the task
	 * @param timeout the bound of the poll
	 * @return the state, or the failure after which polling may go on
	 * @throws McpTaskLostException when the server no longer knows the task
	 * @throws McpProtocolException when a terminal task changed (2025-11-25
	 * basic/utilities/tasks §Task Status Lifecycle: it MUST NOT)
	 */
	public Poll refresh(FollowedTask task, Duration timeout) {
		TaskState last = task.last();
		Poll poll = poll(task, timeout);
		TaskState next = poll.state();
		if (next == null) {
			return poll;
		}
		if (last.status().isTerminal() && next.status() != last.status()) {
			throw new McpProtocolException(this.upstream, "task " + last.taskId() + " moved from terminal status "
					+ last.status().wireName() + " to " + next.status().wireName() + " (a terminal task MUST NOT change: "
					+ "2025-11-25 basic/utilities/tasks §Task Status Lifecycle; 2026-07-28 tasks extension §Tasks)", null);
		}
		task.seen(next);
		return poll;
	}

	/**
	 * Cancels the task ({@code tasks/cancel}), bounded, errors ignored: the caller is leaving.
	 * The interrupt flag is cleared for the send and set again after, since an interrupted
	 * thread sends nothing. A 2025-11-25 server answers with the task; a 2026-07-28 one only
	 * acknowledges, and the client keeps nothing of the task after (tasks extension §Task
	 * Cancellation: it MAY drop its state), so the task is taken as cancelled.
	 * @param task the task
	 * @return {@code true} when the server confirmed
	 */
	public boolean cancel(FollowedTask task) {
		boolean interrupted = Thread.interrupted();
		try {
			JsonNode answer = this.requests.inItsSession(task, McpMethods.TASKS_CANCEL, this.requests.params(task),
					CANCEL_BOUND);
			task.cancelAcknowledged();
			if (answer.has("status")) {
				task.seen(TaskState.of(this.upstream, answer, "the tasks/cancel answer"));
			}
			else if (task.era() == ProtocolEra.MODERN && !task.last().status().isTerminal()) {
				TaskState last = task.last();
				task.seen(new TaskState(last.taskId(), McpTaskStatus.CANCELLED, "cancellation acknowledged (tasks/cancel)",
						last.pollInterval(), last.ttl()));
			}
			return true;
		}
		catch (McpException ex) {
			logger.debug("[" + this.upstream + "] cancelling task " + task.taskId() + " failed: " + ex.getMessage());
			return false;
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private static Duration pollDelay(TaskState last, TaskBounds bounds, long lastChange) {
		Duration asked = (last.pollInterval() != null) ? last.pollInterval() : DEFAULT_POLL_INTERVAL;
		Duration delay = (asked.compareTo(MIN_POLL_INTERVAL) < 0) ? MIN_POLL_INTERVAL
				: (asked.compareTo(MAX_POLL_INTERVAL) > 0) ? MAX_POLL_INTERVAL : asked;
		long now = System.nanoTime();
		long untilBound = Math.min(bounds.deadlineNanos() - now, lastChange + bounds.silence().toNanos() - now);
		return (untilBound < delay.toNanos()) ? Duration.ofNanos(Math.max(untilBound, 0)) : delay;
	}

	private void pause(Duration delay) {
		try {
			Thread.sleep(delay.toMillis(), (int) (delay.toNanos() % 1_000_000));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new McpCancelledException(this.upstream, McpMethods.TOOLS_CALL, ex);
		}
	}

	private void checkBounds(FollowedTask task, TaskBounds bounds, long lastChange, long now,
			@Nullable McpException lastFailure) {
		boolean total = now - bounds.deadlineNanos() >= 0;
		boolean silent = now - lastChange >= bounds.silence().toNanos();
		if (!total && !silent) {
			return;
		}
		Duration bound = total ? bounds.total() : bounds.silence();
		String what = total ? "did not finish within " + bound.toMillis() + " ms"
				: "reported no change of status within " + bound.toMillis() + " ms";
		String told = "task " + task.taskId() + " of tool '" + task.tool() + "' " + what + " (last status "
				+ task.last().status().wireName() + "); ";
		if (!bounds.cancelOnLeaving()) {
			throw new McpTaskStillRunningException(this.upstream, task.taskId(), task.tool(), bound,
					told + "it keeps running and has not failed; follow it by its id", lastFailure);
		}
		String then = cancel(task) ? "it was cancelled (tasks/cancel)" : "cancelling it failed, so it may still be running";
		throw new McpTimeoutException(this.upstream, McpMethods.TOOLS_CALL, bound, told + then, lastFailure);
	}

	/**
	 * Hears what following a task finds.
	 */
	public interface Listener {

		/** Hears nothing. */
		Listener NONE = (state) -> {
		};

		/**
		 * The task's status or status message changed (and its first state).
		 * @param state the new state
		 */
		void changed(TaskState state);

		/**
		 * A poll was answered.
		 * @param state the state it found
		 * @param changed whether its status or message changed
		 */
		default void polled(TaskState state, boolean changed) {
		}

	}

	/**
	 * One poll: the state, or the failure after which polling goes on.
	 *
	 * @param state the state, absent when the poll failed
	 * @param failure the failure, absent when the poll answered
	 */
	public record Poll(@Nullable TaskState state, @Nullable McpException failure) {
	}

}
