package dev.mcpx.client.event;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.McpTaskStatus;

/**
 * A tool call became a task: the server created it and gave its id, so from now on the call's outcome is asked of
 * that id and the call is never sent again (2025-11-25 basic/utilities/tasks §Creating Tasks; docs/architecture.md,
 * "Tasks"). Published by the process that sent the call, once per task.
 *
 * @param upstream the upstream name
 * @param taskId the task id (no secret)
 * @param tool the tool the task runs
 * @param status its status as created, {@code WORKING} unless the server said otherwise
 * @param ttl how long the server keeps it after creation, if it said
 * @param journalled whether its row was written to the task journal: only then is its outcome published as
 * {@link McpTaskCompletedEvent}, and with a durable journal it outlives this process
 */
public record McpTaskCreatedEvent(String upstream, String taskId, String tool, McpTaskStatus status,
		@Nullable Duration ttl, boolean journalled) implements McpEvent {

	/**
	 * An event, checked.
	 */
	public McpTaskCreatedEvent {
		Objects.requireNonNull(upstream, "upstream");
		Objects.requireNonNull(taskId, "taskId");
		Objects.requireNonNull(tool, "tool");
		Objects.requireNonNull(status, "status");
	}

}
