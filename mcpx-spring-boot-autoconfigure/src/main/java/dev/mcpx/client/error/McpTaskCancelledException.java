package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * A task ended as {@code cancelled} on its upstream (2025-11-25 basic/utilities/tasks §Task
 * Cancellation; 2026-07-28 tasks extension §Task Status): the server stopped it, on its own or
 * because it was asked to, and the tool call has no result. Not an {@link McpCancelledException},
 * which means the calling thread was interrupted: here the caller did not leave, the server
 * ended the work. Nothing sends the call again.
 */
public class McpTaskCancelledException extends McpException {

	private final String taskId;

	private final String tool;

	private final @Nullable String statusMessage;

	/**
	 * Creates an exception for a task its server cancelled.
	 * @param upstream the upstream name
	 * @param taskId the task's id
	 * @param tool the tool it ran
	 * @param statusMessage the server's message with the status, absent when it sent none
	 * @param askedByClient whether this client had asked for the cancellation ({@code tasks/cancel})
	 */
	public McpTaskCancelledException(String upstream, String taskId, String tool, @Nullable String statusMessage,
			boolean askedByClient) {
		super(upstream, "the server cancelled task " + taskId + " of tool '" + tool + "'"
				+ (askedByClient ? ", as this client asked (tasks/cancel)" : "") + "; the call has no result"
				+ ((statusMessage != null) ? " (" + statusMessage + ")" : ""), null);
		this.taskId = taskId;
		this.tool = tool;
		this.statusMessage = statusMessage;
	}

	/**
	 * The id of the cancelled task.
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

	/**
	 * The server's message with the {@code cancelled} status.
	 * @return the message, absent when the server sent none
	 */
	public @Nullable String statusMessage() {
		return this.statusMessage;
	}

}
