package dev.mcpx.client;

import java.time.Duration;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.task.FollowedTask;
import dev.mcpx.client.internal.task.TaskAugment;
import dev.mcpx.client.internal.task.TaskFollower;
import dev.mcpx.client.internal.task.TaskState;
import dev.mcpx.client.model.McpProgress;
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

	TaskCalls(String upstream, ProtocolSession session, RequestExecutor executor, TaskAugment augment,
			TaskFollower follower) {
		this.upstream = upstream;
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
	 * @param send sends the {@code tools/call} itself, observed like any request
	 * @return the {@code CallToolResult}
	 */
	JsonNode call(ObjectNode params, String tool, Duration timeout, Duration maxTotal,
			@Nullable Consumer<McpProgress> onProgress, Send send) {
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
		FollowedTask task = new FollowedTask(tool, this.session.current(), created);
		logger.debug("[" + this.upstream + "] tool '" + tool + "' became task " + created.taskId());
		return this.follower.follow(task, new TaskFollower.Bounds(timeout, maxTotal, started + maxTotal.toNanos(), true),
				statusReporter(onProgress));
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
