package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The server no longer knows a task the client was following (it answered {@code -32602}
 * for its id, in the task's session or, once that expired, in the new one): the tool the
 * task ran may have run, and its outcome is unknown. The client never sends the tool call
 * again once its task id is known (docs/architecture.md, "Tasks").
 */
public class McpTaskLostException extends McpStreamLostException {

	private final String taskId;

	private final String tool;

	/**
	 * Creates an exception for a lost task.
	 * @param upstream the upstream name
	 * @param taskId the id of the task the server no longer knows
	 * @param tool the tool the task ran
	 * @param why how the loss was found
	 * @param cause the server's answer
	 */
	public McpTaskLostException(String upstream, String taskId, String tool, String why, @Nullable Throwable cause) {
		super(upstream, "tools/call", "task " + taskId + " of tool '" + tool + "' is unknown to the server (" + why
				+ "): the tool may have run and its outcome is unknown; it was not called again", cause);
		this.taskId = taskId;
		this.tool = tool;
	}

	/**
	 * The id of the lost task.
	 * @return the task id
	 */
	public String taskId() {
		return this.taskId;
	}

	/**
	 * The tool the task ran.
	 * @return the tool name
	 */
	public String tool() {
		return this.tool;
	}

}
