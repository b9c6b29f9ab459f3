package dev.mcpx.client.error;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The caller stopped waiting for a task, which keeps running on its upstream (2025-11-25
 * basic/utilities/tasks): its outcome is not known yet, and it has not failed. Follow it again by
 * its id ({@code McpClient.resumeTask}, {@code McpTask.await}); with a task journal, the journal's
 * resumer follows it to its end once its lease passes.
 */
public class McpTaskStillRunningException extends McpTimeoutException {

	private final String taskId;

	private final String tool;

	/**
	 * Creates an exception for a task left running.
	 * @param upstream the upstream name
	 * @param taskId the task's id
	 * @param tool the tool it runs
	 * @param timeout the bound that passed
	 * @param message what timed out
	 * @param cause the last failure on the way, absent when there was none
	 */
	public McpTaskStillRunningException(String upstream, String taskId, String tool, Duration timeout, String message,
			@Nullable Throwable cause) {
		super(upstream, "tools/call", timeout, message, cause);
		this.taskId = taskId;
		this.tool = tool;
	}

	/**
	 * The id of the task, which keeps running.
	 * @return the task id
	 */
	public String taskId() {
		return this.taskId;
	}

	/**
	 * The tool the task runs.
	 * @return the tool name
	 */
	public String tool() {
		return this.tool;
	}

}
