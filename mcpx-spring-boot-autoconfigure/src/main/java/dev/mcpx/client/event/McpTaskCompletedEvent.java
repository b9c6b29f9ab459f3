package dev.mcpx.client.event;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;

/**
 * A task ended, and this is its outcome (2025-11-25 basic/utilities/tasks; 2026-07-28 tasks extension). Published
 * once per task among every process that shares its journal: by the process whose ending write of the task's row
 * succeeded ({@code McpTaskStore.update} returned {@code true}), so an {@code @EventListener} can finish what a
 * crashed process started.
 *
 * @param upstream the upstream name
 * @param taskId the task id (no secret)
 * @param tool the tool the task ran
 * @param status how it ended: {@code COMPLETED}, {@code FAILED}, {@code CANCELLED}, or {@code LOST} when the server
 * no longer knows it or its TTL passed (the work may have run)
 * @param result the tool's result, when the server gave one (a failed tool's result has {@code isError})
 * @param failure why no result is known (a JSON-RPC error, a lost task), redacted like every {@link McpException}
 * @param took how long the task took, from its creation to the outcome
 * @param resumedAfterRestart whether a process other than the one that started it followed it to its end (the
 * starter was restarted, or died and another replica took the task over)
 */
public record McpTaskCompletedEvent(String upstream, String taskId, String tool, McpTaskStatus status,
		@Nullable CallToolResult result, @Nullable McpException failure, Duration took,
		boolean resumedAfterRestart) implements McpEvent {

	/**
	 * An event, checked: a terminal status.
	 */
	public McpTaskCompletedEvent {
		Objects.requireNonNull(upstream, "upstream");
		Objects.requireNonNull(taskId, "taskId");
		Objects.requireNonNull(tool, "tool");
		Objects.requireNonNull(took, "took");
		if (!status.isTerminal()) {
			throw new IllegalArgumentException("A completed task has a terminal status, not " + status);
		}
	}

}
