package dev.mcpx.client;

import java.time.Duration;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.ResultMapper;
import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.task.FollowedTask;
import dev.mcpx.client.internal.task.TaskAugment;
import dev.mcpx.client.internal.task.TaskBounds;
import dev.mcpx.client.internal.task.TaskFollower;
import dev.mcpx.client.internal.task.TaskState;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Tool calls that may become tasks, for {@link DefaultMcpClient}: asks for a task when
 * {@link TaskAugment} says so, and follows a task the server created to its outcome, so that
 * {@link McpClient#callTool} stays one blocking call whichever the server chose
 * (docs/architecture.md, "Tasks").
 */
final class TaskCalls {

	private static final Log logger = LogFactory.getLog(TaskCalls.class);

	private final String upstream;

	private final ProtocolSession session;

	private final RequestExecutor executor;

	private final TaskAugment augment;

	private final TaskFollower follower;

	private final JsonRpc jsonRpc;

	private final TaskJournal journal;

	TaskCalls(String upstream, ProtocolSession session, RequestExecutor executor, TaskAugment augment,
			TaskFollower follower, JsonRpc jsonRpc, TaskJournal journal) {
		this.upstream = upstream;
		this.jsonRpc = jsonRpc;
		this.journal = journal;
		this.session = session;
		this.executor = executor;
		this.augment = augment;
		this.follower = follower;
	}

	/**
	 * Calls a tool, as a task where it should be one, and returns its result.
	 * @param params the call's parameters; {@code task} is added when a task is asked for
	 * @param tool the tool name
	 * @param timeout the call's timeout: for a task, the longest silence between changes of
	 * its status
	 * @param maxTotal the call's hard cap: for a task, the bound of the whole task
	 * @param onProgress hears the task's status changes, absent for none
	 * @param leaveRunning whether the task is left running when a bound passes or the thread is
	 * interrupted, rather than cancelled
	 * @param send sends the {@code tools/call} itself, observed like any request
	 * @return the {@code CallToolResult}
	 */
	JsonNode call(ObjectNode params, String tool, Duration timeout, Duration maxTotal,
			@Nullable Consumer<McpProgress> onProgress, boolean leaveRunning, Send send) {
		long started = System.nanoTime();
		// The tool was listed before its first call, which opened the session; without one (the
		// listing failed) nothing is known of the tool's task support, and the send reports why.
		SessionState on = this.session.current();
		if (on != null && this.augment.asksForTask(on, tool, timeout)) {
			// 2025-11-25 basic/utilities/tasks §Creating Tasks: the server keeps it as long as it sees fit.
			params.putObject("task");
		}
		JsonNode result = send.toolsCall(params);
		TaskState created = TaskAugment.created(this.upstream, tool, result);
		if (created == null) {
			return result;
		}
		FollowedTask task = followed(tool, result, created);
		logger.debug("[" + this.upstream + "] tool '" + tool + "' became task " + created.taskId());
		TaskJournal.Entry row = this.journal.opened(task, params.path("arguments"));
		try {
			JsonNode outcome = this.follower.follow(task,
					new TaskBounds(timeout, maxTotal, started + maxTotal.toNanos(), !leaveRunning),
					row.listening(statusReporter(onProgress)));
			CallToolResult mapped = ResultMapper.callToolResult(outcome);
			row.ended(TaskJournal.endedWith(task.last(), mapped), task.last().statusMessage(), mapped, null);
			return outcome;
		}
		catch (McpException ex) {
			McpTaskStatus ended = TaskJournal.endedBy(task.last(), ex);
			if (ended != null) {
				row.ended(ended, task.last().statusMessage(), null, ex);
			}
			throw ex;
		}
	}

	/**
	 * Starts a tool call as a task whenever it may be one, and returns its handle; a call the
	 * server answers directly gives a task already completed.
	 * @param params the call's parameters; {@code task} is added when the tool supports one
	 * @param tool the tool name
	 * @param requestTimeout the bound of each request of the task
	 * @param send sends the {@code tools/call} itself, observed like any request
	 * @return the task
	 */
	McpTask start(ObjectNode params, String tool, Duration requestTimeout, Send send) {
		SessionState on = this.session.current();
		if (on != null && this.augment.mayBeTask(on, tool)) {
			params.putObject("task");
		}
		JsonNode result = send.toolsCall(params);
		TaskState created = TaskAugment.created(this.upstream, tool, result);
		if (created == null) {
			return new DirectMcpTask(this.upstream, tool, ResultMapper.callToolResult(result));
		}
		FollowedTask task = followed(tool, result, created);
		return new FollowedMcpTask(this.upstream, task, this.follower, this.jsonRpc, requestTimeout,
				this.journal.opened(task, params.path("arguments")));
	}

	/**
	 * Takes up a task by its reference: in the session it is bound to, when that is this
	 * client's session or one the client never opened (a task of another process, whose session
	 * is asked without an {@code initialize}); once that session expired, the task is asked for
	 * once in a new one. Asks the server for its state once.
	 * @param reference the task
	 * @param requestTimeout the bound of each request of the task
	 * @return the task
	 */
	McpTask resume(McpTaskReference reference, Duration requestTimeout) {
		if (!reference.upstream().equals(this.upstream)) {
			throw new IllegalArgumentException("Task " + reference.taskId() + " belongs to upstream '"
					+ reference.upstream() + "', not to '" + this.upstream + "'");
		}
		if (reference.direct()) {
			throw new IllegalArgumentException("Tool '" + reference.tool() + "' was answered directly (task "
					+ reference.taskId() + " is the client's own id): there is nothing to resume");
		}
		SessionState bound = boundSession(reference);
		// a reference bound to no session: a task of the era the upstream speaks now
		ProtocolEra era = (bound != null) ? ProtocolEra.LEGACY : this.executor.connect().era();
		FollowedTask task = new FollowedTask(reference.tool(), era, bound,
				new TaskState(reference.taskId(), McpTaskStatus.WORKING, null, null, null));
		this.follower.refresh(task, requestTimeout);
		// its row, if any, is its resumer's (the journal's claim), not written again here
		return new FollowedMcpTask(this.upstream, task, this.follower, this.jsonRpc, requestTimeout,
				this.journal.none(task));
	}

	/**
	 * The handle of a task just created: a 2026-07-28 task belongs to no session (2026-07-28
	 * basic: the era has none); a 2025-11-25 one to the session its answer came in.
	 */
	private FollowedTask followed(String tool, JsonNode result, TaskState created) {
		return TaskAugment.isExtensionTask(result) ? new FollowedTask(tool, ProtocolEra.MODERN, null, created)
				: new FollowedTask(tool, ProtocolEra.LEGACY, this.session.current(), created);
	}

	/**
	 * The session a resumed task is asked in: this client's, when it is the one; else the
	 * reference's as generation 0, older than any this client opened, so that its expiry renews
	 * nothing of this client's and leads to one question in the current session.
	 */
	private @Nullable SessionState boundSession(McpTaskReference reference) {
		McpTaskRecord.BoundSession bound = reference.session();
		if (bound == null) {
			return null;
		}
		SessionState current = this.session.current();
		if (current != null && bound.sessionId().equals(current.sessionId())) {
			return current;
		}
		JsonNode capabilities = this.jsonRpc.mapper().readTree(bound.serverCapabilities());
		return new SessionState(ProtocolEra.LEGACY, 0, bound.sessionId(), bound.protocolVersion(), null, capabilities);
	}

	/** A task's status changes as progress: a count, and the status with its message. */
	private Consumer<TaskState> statusReporter(@Nullable Consumer<McpProgress> onProgress) {
		if (onProgress == null) {
			return (state) -> {
			};
		}
		int[] changes = { 0 };
		return (state) -> {
			String message = "task " + state.status().wireName()
					+ ((state.statusMessage() != null) ? ": " + state.statusMessage() : "");
			try {
				onProgress.accept(new McpProgress(++changes[0], null, message));
			}
			catch (RuntimeException ex) {
				logger.warn("[" + this.upstream + "] a progress consumer failed", ex);
			}
		};
	}

	/** The one send of a tool call. */
	@FunctionalInterface
	interface Send {

		/**
		 * Sends the {@code tools/call}.
		 * @param params its parameters
		 * @return its result
		 */
		JsonNode toolsCall(ObjectNode params);

	}

}
