package dev.mcpx.client.internal.task;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTaskStillRunningException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.stdio.ChannelClosedException;
import dev.mcpx.client.model.McpTaskStatus;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Follows a task to its outcome through its handle, never through its request (2025-11-25
 * basic/utilities/tasks; docs/architecture.md, "Tasks"): polls {@code tasks/get} at the
 * server's {@code pollInterval} (kept within {@link #MIN_POLL_INTERVAL} and
 * {@link #MAX_POLL_INTERVAL}), asks {@code tasks/result} for the outcome once the task is
 * terminal, and at once when it needs input (§Input Required Status, rule 3: the server asks
 * its questions on that stream, and the client's input handler answers them).
 * <p>
 * Once the task id is known no failure sends the tool call again: a lost poll, a poll that
 * timed out, a 5xx, an upstream that cannot be reached or a failed re-initialize are
 * followed by the next poll; a session that expired is replaced and the task asked for once
 * in the new session. Only the server's word that it does not know the task
 * ({@code -32602}) ends it, as {@link McpTaskLostException}. Each poll is one request of
 * the recovery loop, under its bound; how long the polling goes on is bounded by the
 * caller's {@link Bounds}.
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

	private final RequestExecutor executor;

	private final JsonRpc jsonRpc;

	/**
	 * Creates the follower of one client's tasks.
	 * @param upstream the upstream name
	 * @param executor the recovery loop every poll goes through
	 * @param jsonRpc the client's codec
	 */
	public TaskFollower(String upstream, RequestExecutor executor, JsonRpc jsonRpc) {
		this.upstream = upstream;
		this.executor = executor;
		this.jsonRpc = jsonRpc;
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
	 */
	public JsonNode follow(FollowedTask task, Bounds bounds, Listener listener) {
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
	}

	private JsonNode followUntilOutcome(FollowedTask task, Bounds bounds, Listener listener) {
		long lastChange = System.nanoTime();
		@Nullable McpException lastFailure = null;
		listener.changed(task.last());
		while (true) {
			TaskState last = task.last();
			if (last.status() == McpTaskStatus.CANCELLED) {
				throw new McpException(this.upstream, "task " + last.taskId() + " of tool '" + task.tool()
						+ "' was cancelled by the server" + message(last), null);
			}
			if (last.status().isTerminal() || last.status() == McpTaskStatus.INPUT_REQUIRED) {
				Outcome outcome = result(task, bounds);
				if (outcome.result() != null) {
					return outcome.result();
				}
				lastFailure = outcome.failure();
			}
			pause(pollDelay(last, bounds, lastChange));
			// poll before judging the bounds: the wait may have ended right at one
			Poll poll = refresh(task, bounds.requestTimeout(System.nanoTime()));
			TaskState next = poll.state();
			boolean changed = next != null && next.changedFrom(last);
			if (next == null) {
				lastFailure = poll.failure();
			}
			else {
				listener.polled(next, changed);
			}
			if (next != null && changed) {
				lastChange = System.nanoTime();
				listener.changed(next);
			}
			else {
				checkBounds(task, bounds, lastChange, System.nanoTime(), lastFailure);
			}
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
			return new Poll(TaskState.of(this.upstream, inItsSession(task, McpMethods.TASKS_GET, timeout),
					"the tasks/get answer"), null);
		}
		catch (McpCancelledException | McpTaskLostException | McpProtocolException ex) {
			throw ex;
		}
		catch (McpException ex) {
			if (!transient_(ex)) {
				throw ex;
			}
			logger.debug("[" + this.upstream + "] polling task " + task.taskId() + " failed, polling again: "
					+ ex.getMessage());
			task.broken(brokenBy(ex));
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
					+ last.status().wireName() + " to " + next.status().wireName() + " (2025-11-25 basic/utilities/tasks "
					+ "§Task Status Lifecycle: a terminal task MUST NOT change)", null);
		}
		task.seen(next);
		return poll;
	}

	/**
	 * Cancels the task ({@code tasks/cancel}), bounded, errors ignored: the caller is leaving.
	 * The interrupt flag is cleared for the send and set again after, since an interrupted
	 * thread sends nothing.
	 * @param task the task
	 * @return {@code true} when the server confirmed
	 */
	public boolean cancel(FollowedTask task) {
		boolean interrupted = Thread.interrupted();
		try {
			JsonNode answer = inItsSession(task, McpMethods.TASKS_CANCEL, CANCEL_BOUND);
			if (answer.has("status")) {
				task.seen(TaskState.of(this.upstream, answer, "the tasks/cancel answer"));
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

	/**
	 * {@code tasks/result}: the outcome of a terminal task, or, for one that needs input, the
	 * stream on which the server asks (and then the outcome, which it blocks for).
	 */
	private Outcome result(FollowedTask task, Bounds bounds) {
		try {
			return new Outcome(inItsSession(task, McpMethods.TASKS_RESULT, bounds.requestTimeout(System.nanoTime())), null);
		}
		catch (McpCancelledException | McpTaskLostException ex) {
			throw ex;
		}
		catch (McpJsonRpcException ex) {
			if (task.last().status().isTerminal()) {
				throw ex; // the request's own error, as the call would have returned it (§Result Retrieval, rule 4)
			}
			logger.debug("[" + this.upstream + "] tasks/result of task " + task.taskId() + " needing input failed: "
					+ ex.getMessage());
			return new Outcome(null, ex);
		}
		catch (McpException ex) {
			if (!transient_(ex)) {
				throw ex;
			}
			return new Outcome(null, ex);
		}
	}

	/**
	 * Sends a request naming the task in the task's session; after that expired, once in the
	 * session that replaced it, where the task becomes the new session's if the server knows
	 * it there (task ids are unique across the receiver: §Task ID Requirements, rule 3).
	 */
	private JsonNode inItsSession(FollowedTask task, String method, Duration timeout) {
		McpRequest request = new McpRequest(method, params(task), null, positive(timeout));
		SessionState session = task.session();
		try {
			try {
				return (session != null) ? this.executor.execute(request, session) : this.executor.execute(request);
			}
			catch (McpSessionExpiredException expired) {
				SessionState next = this.executor.connect();
				logger.info("[" + this.upstream + "] the session of task " + task.taskId() + " expired; asking for it "
						+ "once in session generation " + next.generation());
				JsonNode answer = this.executor.execute(request, next);
				task.movedTo(next);
				task.broken(brokenBy(expired));
				return answer;
			}
		}
		catch (McpJsonRpcException ex) {
			if (ex.code() == McpJsonRpcException.INVALID_PARAMS) {
				throw new McpTaskLostException(this.upstream, task.taskId(), task.tool(),
						method + " answered " + ex.code() + " \"" + ex.errorMessage() + "\"", ex);
			}
			throw ex;
		}
	}

	private ObjectNode params(FollowedTask task) {
		return this.jsonRpc.mapper().createObjectNode().put("taskId", task.taskId());
	}

	/** Failures of a poll after which the task is still the server's: poll again. */
	private static boolean transient_(McpException ex) {
		return ex instanceof McpStreamLostException || ex instanceof McpTimeoutException
				|| ex instanceof McpTransportException || ex instanceof McpRecoveryFailedException
				|| ex instanceof McpSessionExpiredException
				|| (ex instanceof McpHttpStatusException status && status.status() >= 500);
	}

	/** What a failure after which the task is asked about again broke: its session, its process, or an answer. */
	private static McpTaskResumedEvent.Cause brokenBy(McpException ex) {
		if (!(ex instanceof McpSessionExpiredException)) {
			return McpTaskResumedEvent.Cause.STREAM_LOST;
		}
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof ChannelClosedException) {
				// 2026-07-28 basic/transports/stdio §Unexpected Termination: the process's exit ended the session
				return McpTaskResumedEvent.Cause.PROCESS_RESTARTED;
			}
		}
		return McpTaskResumedEvent.Cause.SESSION_EXPIRED;
	}

	/** The wait before the next poll: the server's interval, bounded, never past a bound. */
	private static Duration pollDelay(TaskState last, Bounds bounds, long lastChange) {
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

	private void checkBounds(FollowedTask task, Bounds bounds, long lastChange, long now,
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

	private static Duration positive(Duration timeout) {
		return (timeout.compareTo(Duration.ofMillis(1)) < 0) ? Duration.ofMillis(1) : timeout;
	}

	private static String message(TaskState state) {
		return (state.statusMessage() != null) ? ": " + state.statusMessage() : "";
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
	 * How long a task is followed.
	 *
	 * @param silence the longest time without a change of status (the call's timeout)
	 * @param total the bound of the whole task (the call's hard cap)
	 * @param deadlineNanos when the whole task's bound passes, in {@code System.nanoTime()}
	 * @param cancelOnLeaving whether a task is cancelled when a bound passes or the caller is
	 * interrupted (a call that gives up), or left running (a caller that only stops waiting)
	 */
	public record Bounds(Duration silence, Duration total, long deadlineNanos, boolean cancelOnLeaving) {

		/**
		 * Bounds starting now.
		 * @param silence the longest time without a change of status
		 * @param total the bound of the whole task
		 * @param cancelOnLeaving whether a task is cancelled when a bound passes or the caller
		 * is interrupted
		 * @return the bounds
		 */
		public static Bounds startingNow(Duration silence, Duration total, boolean cancelOnLeaving) {
			return new Bounds(silence, total, System.nanoTime() + total.toNanos(), cancelOnLeaving);
		}

		/** The bound of one request: the silence allowed, never past the whole task's bound. */
		Duration requestTimeout(long nowNanos) {
			long left = this.deadlineNanos - nowNanos;
			return (left < this.silence.toNanos()) ? Duration.ofNanos(Math.max(left, 1_000_000)) : this.silence;
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

	private record Outcome(@Nullable JsonNode result, @Nullable McpException failure) {
	}

}
