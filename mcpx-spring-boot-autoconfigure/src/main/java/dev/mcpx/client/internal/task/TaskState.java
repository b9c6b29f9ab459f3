package dev.mcpx.client.internal.task;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.model.McpTaskStatus;
import tools.jackson.databind.JsonNode;

/**
 * A task as the server last described it (2025-11-25 basic/utilities/tasks §Data Types,
 * {@code Task}; 2026-07-28 tasks extension §Tasks): in a {@code CreateTaskResult}, a
 * {@code tasks/get} answer or a status notification.
 *
 * @param taskId the id the server gave the task
 * @param status its status
 * @param statusMessage the server's message, absent when it sent none
 * @param pollInterval how often the server suggests polling, absent when it said nothing
 * @param ttl how long the server keeps the task from its creation, absent for unlimited or
 * unsaid
 * @param detail what a 2026-07-28 {@code tasks/get} inlines for the status (§Tasks,
 * {@code DetailedTask}): the {@code result} of a completed task, the {@code error} of a failed
 * one, the {@code inputRequests} of one that needs input; absent otherwise, and in the legacy era
 */
public record TaskState(String taskId, McpTaskStatus status, @Nullable String statusMessage,
		@Nullable Duration pollInterval, @Nullable Duration ttl, @Nullable JsonNode detail) {

	/**
	 * A state without inlined payload.
	 * @param taskId the id the server gave the task
	 * @param status its status
	 * @param statusMessage the server's message, absent when it sent none
	 * @param pollInterval how often the server suggests polling, absent when it said nothing
	 * @param ttl how long the server keeps the task, absent for unlimited or unsaid
	 */
	public TaskState(String taskId, McpTaskStatus status, @Nullable String statusMessage,
			@Nullable Duration pollInterval, @Nullable Duration ttl) {
		this(taskId, status, statusMessage, pollInterval, ttl, null);
	}

	/**
	 * Reads a {@code Task} object, refusing one the client cannot follow.
	 * @param upstream the upstream name, for the failure
	 * @param task the object
	 * @param where what carried it, for the failure ({@code the CreateTaskResult of tool 'x'})
	 * @return the state
	 * @throws McpProtocolException without a task id, or with a status none of the five
	 */
	public static TaskState of(String upstream, JsonNode task, String where) {
		JsonNode id = task.get("taskId");
		if (id == null || !id.isString() || id.stringValue().isBlank()) {
			throw new McpProtocolException(upstream, where + " carries no taskId (2025-11-25 basic/utilities/tasks "
					+ "§Task ID Requirements: a string the receiver generates); the task cannot be followed", null);
		}
		JsonNode wireStatus = task.get("status");
		McpTaskStatus status = serverStatus(wireStatus);
		if (status == null) {
			throw new McpProtocolException(upstream, where + " of task " + id.stringValue() + " has status "
					+ ((wireStatus != null) ? wireStatus.toString() : "(none)") + ", which is not one of working, "
					+ "input_required, completed, failed, cancelled", null);
		}
		JsonNode message = task.get("statusMessage");
		// 2026-07-28 tasks extension §Tasks renamed them pollIntervalMs and ttlMs
		return new TaskState(id.stringValue(), status, (message != null && message.isString()) ? message.stringValue() : null,
				millis(task.has("pollIntervalMs") ? task.get("pollIntervalMs") : task.get("pollInterval")),
				millis(task.has("ttlMs") ? task.get("ttlMs") : task.get("ttl")), null);
	}

	/**
	 * Reads a 2026-07-28 {@code tasks/get} answer, a {@code DetailedTask} (tasks extension
	 * §Task Polling, rules 2, 3 and 5: the server MUST inline {@code inputRequests},
	 * {@code result} or {@code error} with their status), refusing one that lacks them.
	 * @param upstream the upstream name, for the failure
	 * @param task the answer
	 * @return the state, with its inlined payload
	 * @throws McpProtocolException for a task the client cannot follow, or one whose status
	 * lacks its payload
	 */
	public static TaskState detailed(String upstream, JsonNode task) {
		TaskState state = of(upstream, task, "the tasks/get answer");
		String field = switch (state.status()) {
			case COMPLETED -> "result";
			case FAILED -> "error";
			case INPUT_REQUIRED -> "inputRequests";
			default -> null;
		};
		if (field == null) {
			return state;
		}
		JsonNode payload = task.get(field);
		if (payload == null || !payload.isObject()) {
			throw new McpProtocolException(upstream, "the tasks/get answer of task " + state.taskId() + " has status "
					+ state.status().wireName() + " but no " + field + " object (2026-07-28 tasks extension §Task "
					+ "Polling: the server MUST include it)", null);
		}
		return new TaskState(state.taskId(), state.status(), state.statusMessage(), state.pollInterval(), state.ttl(),
				payload);
	}

	/**
	 * Whether this state says something new beside the one before: its status or message.
	 * @param before the state before
	 * @return {@code true} when either changed
	 */
	public boolean changedFrom(TaskState before) {
		return this.status != before.status || !java.util.Objects.equals(this.statusMessage, before.statusMessage);
	}

	/** One of the five statuses a server sends; {@code lost} is the client's own word. */
	private static @Nullable McpTaskStatus serverStatus(@Nullable JsonNode wire) {
		if (wire == null || !wire.isString()) {
			return null;
		}
		try {
			McpTaskStatus status = McpTaskStatus.ofWireName(wire.stringValue());
			return (status != McpTaskStatus.LOST) ? status : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static @Nullable Duration millis(@Nullable JsonNode value) {
		return (value != null && value.isNumber() && value.asLong() >= 0) ? Duration.ofMillis(value.asLong()) : null;
	}

}
