package dev.mcpx.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;

/**
 * A tool call that runs as a task on its upstream (2025-11-25 basic/utilities/tasks), followed by
 * its id: {@link McpClient#startTool(String, java.util.Map)} starts one,
 * {@link McpClient#resumeTask(McpTaskReference)} takes one up again. Nothing ever sends its
 * {@code tools/call} again: a broken stream, an expired session or a poll that failed lead back to
 * asking the server about this id. A tool that does not support tasks still gives an
 * {@code McpTask}, already completed by the direct call.
 * <p>
 * Thread-safe. No thread polls the task in the background: {@link #await(Duration)} and
 * {@link #status()} ask the server when they are called.
 */
public interface McpTask {

	/**
	 * The task id, as the server gave it (for a call answered directly, one the client made up).
	 * @return the id
	 */
	String id();

	/**
	 * The upstream that runs the task.
	 * @return the upstream name
	 */
	String upstream();

	/**
	 * The tool the task runs.
	 * @return the tool name
	 */
	String tool();

	/**
	 * The task's status: asked of the server ({@code tasks/get}, one request within the client's
	 * request timeout) unless the task is known to have ended; the last known status when the
	 * server cannot be reached.
	 * @return the status; {@link McpTaskStatus#LOST} once the server was found not to know the
	 * task
	 * @throws dev.mcpx.client.error.McpTaskLostException when the server is found not to know the
	 * task
	 */
	McpTaskStatus status();

	/**
	 * The server's message with the last known status.
	 * @return the message, absent when the server sent none
	 */
	@Nullable String statusMessage();

	/**
	 * Waits for the task's outcome, polling it at the server's interval, and answers the
	 * server's questions through the client's input handler. When the time is up the task keeps
	 * running and may be awaited again.
	 * @param timeout how long to wait
	 * @return the result, exactly what the call would have returned directly; a tool error is a
	 * result with {@code isError}
	 * @throws dev.mcpx.client.error.McpTimeoutException when the time is up; the task keeps running
	 * @throws dev.mcpx.client.error.McpTaskLostException when the server no longer knows the task:
	 * the tool may have run
	 * @throws dev.mcpx.client.error.McpCancelledException when the calling thread is interrupted;
	 * the task keeps running
	 */
	CallToolResult await(Duration timeout);

	/**
	 * Cancels the task ({@code tasks/cancel}, 2025-11-25 basic/utilities/tasks §Task
	 * Cancellation); nothing is sent for a task known to have ended.
	 * @return {@code true} when the server confirmed the cancellation
	 */
	boolean cancel();

	/**
	 * What it takes to follow this task again, elsewhere.
	 * @return the reference
	 */
	McpTaskReference reference();

}
