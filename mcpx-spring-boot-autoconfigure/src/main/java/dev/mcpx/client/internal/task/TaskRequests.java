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
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.stdio.ChannelClosedException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The requests that name a task, for {@link TaskFollower}: each sent in the task's session (and
 * once in the session that replaced it), its {@code -32602} read as a lost task, its failures
 * sorted into those after which the task is still the server's (poll again) and the others.
 */
final class TaskRequests {

	private static final Log logger = LogFactory.getLog(TaskRequests.class);

	private final String upstream;

	private final RequestExecutor executor;

	private final JsonRpc jsonRpc;

	private final TaskExtension extension;

	TaskRequests(String upstream, RequestExecutor executor, JsonRpc jsonRpc, TaskExtension extension) {
		this.upstream = upstream;
		this.executor = executor;
		this.jsonRpc = jsonRpc;
		this.extension = extension;
	}

	/**
	 * {@code tasks/result}: the outcome of a terminal task, or, for one that needs input, the
	 * stream on which the server asks (and then the outcome, which it blocks for).
	 */
	Outcome result(FollowedTask task, TaskBounds bounds) {
		try {
			return new Outcome(inItsSession(task, McpMethods.TASKS_RESULT, params(task),
					bounds.requestTimeout(System.nanoTime())), null);
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
	 * Answers what a 2026-07-28 task asks ({@code tasks/update}, 2026-07-28 tasks extension §Task
	 * Update Requests), when it asks something not acknowledged yet.
	 * @return the failure after which the next poll may show the question again, absent when
	 * the answers were acknowledged or there was nothing to send
	 */
	@Nullable McpException answerInput(FollowedTask task, TaskBounds bounds) {
		TaskExtension.Update update = this.extension.update(task, task.last());
		if (update == null) {
			return null;
		}
		try {
			inItsSession(task, McpMethods.TASKS_UPDATE, update.params(), bounds.requestTimeout(System.nanoTime()));
			task.delivered(update.keys());
			return null;
		}
		catch (McpCancelledException | McpTaskLostException | McpProtocolException ex) {
			throw ex;
		}
		catch (McpException ex) {
			if (!transient_(ex)) {
				throw ex;
			}
			// the server ignores answers to keys already answered: sending them again is harmless
			logger.debug("[" + this.upstream + "] answering task " + task.taskId() + " failed, answering again at the "
					+ "next poll: " + ex.getMessage());
			return ex;
		}
	}

	/**
	 * Sends a request naming the task in the task's session; after that expired, once in the
	 * session that replaced it, where the task becomes the new session's if the server knows
	 * it there (task ids are unique across the receiver: §Task ID Requirements, rule 3).
	 */
	JsonNode inItsSession(FollowedTask task, String method, ObjectNode params, Duration timeout) {
		McpRequest request = new McpRequest(method, params, null, positive(timeout));
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

	ObjectNode params(FollowedTask task) {
		return this.jsonRpc.mapper().createObjectNode().put("taskId", task.taskId());
	}

	/** Failures of a poll after which the task is still the server's: poll again. */
	static boolean transient_(McpException ex) {
		return ex instanceof McpStreamLostException || ex instanceof McpTimeoutException
				|| ex instanceof McpTransportException || ex instanceof McpRecoveryFailedException
				|| ex instanceof McpSessionExpiredException
				|| (ex instanceof McpHttpStatusException status && status.status() >= 500);
	}

	/** What a failure after which the task is asked about again broke: its session, its process, or an answer. */
	static McpTaskResumedEvent.Cause brokenBy(McpException ex) {
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

	static Duration positive(Duration timeout) {
		return (timeout.compareTo(Duration.ofMillis(1)) < 0) ? Duration.ofMillis(1) : timeout;
	}

	record Outcome(@Nullable JsonNode result, @Nullable McpException failure) {
	}

}
