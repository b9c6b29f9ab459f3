package dev.mcpx.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;

/**
 * A tool call that runs as a task on its upstream (2025-11-25 basic/utilities/tasks; the 2026-07-28
 * tasks extension, {@code io.modelcontextprotocol/tasks}), followed by
 * its id: {@link McpClient#startTool(String, java.util.Map)} starts one,
 * {@link McpClient#resumeTask(McpTaskReference)} takes one up again. Nothing ever sends its
 * {@code tools/call} again: a broken stream, an expired session or a poll that failed lead back to
 * asking the server about this id. A tool that does not support tasks still gives an
 * {@code McpTask}, already completed by the direct call.
 * <p>
 * Thread-safe. No thread polls the task unless asked: {@link #await(Duration)} follows it in the
 * waiting thread, {@link #status()} asks the server when called, and {@link #awaitAsync(Duration)}
 * follows it on a few polling threads every client shares, so that any number of tasks in flight
 * hold a bounded number of threads.
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
	 * @throws dev.mcpx.client.error.McpTaskCancelledException when the server cancelled the task
	 */
	CallToolResult await(Duration timeout);

	/**
	 * Follows the task to its outcome without holding the calling thread: polled at the server's
	 * interval on polling threads every client of the JVM shares (a bounded number, whatever the
	 * number of tasks in flight), its questions answered through the client's input handler. When
	 * the time is up the future fails with {@link dev.mcpx.client.error.McpTaskStillRunningException}
	 * and the task keeps running; cancelling the future stops following and leaves the task running.
	 * @param timeout how long to follow it
	 * @return the result, as {@link #await(Duration)} returns it, or its failure
	 */
	java.util.concurrent.CompletableFuture<CallToolResult> awaitAsync(Duration timeout);

	/**
	 * Cancels the task ({@code tasks/cancel}, 2025-11-25 basic/utilities/tasks §Task
	 * Cancellation; 2026-07-28 tasks extension §Task Cancellation, where the server only
	 * acknowledges and the task is then taken as cancelled); nothing is sent for a task known to
	 * have ended.
	 * @return {@code true} when the server confirmed the cancellation
	 */
	boolean cancel();

	/**
	 * What it takes to follow this task again, elsewhere.
	 * @return the reference
	 */
	McpTaskReference reference();

}
