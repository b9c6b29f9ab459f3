package dev.mcpx.client.event;

import java.util.Objects;

/**
 * A task was followed again after something broke its following, by its id and never by sending its call again
 * (2025-11-25 basic/utilities/tasks; docs/architecture.md, "Tasks"): the server answered about it after a lost
 * answer, in a new session, in a restarted server process, or in another application process than the one that
 * started it. A task may be resumed several times; its outcome still comes once, as {@link McpTaskCompletedEvent}.
 *
 * @param upstream the upstream name
 * @param taskId the task id (no secret)
 * @param tool the tool the task runs
 * @param cause what broke its following
 */
public record McpTaskResumedEvent(String upstream, String taskId, String tool, Cause cause) implements McpEvent {

	/**
	 * An event, checked.
	 */
	public McpTaskResumedEvent {
		Objects.requireNonNull(upstream, "upstream");
		Objects.requireNonNull(taskId, "taskId");
		Objects.requireNonNull(tool, "tool");
		Objects.requireNonNull(cause, "cause");
	}

	/**
	 * What broke the following of a task.
	 */
	public enum Cause {

		/**
		 * A poll's answer was lost (a broken stream, a timeout, an unreachable upstream, a 5xx); a later poll was
		 * answered.
		 */
		STREAM_LOST,

		/**
		 * The session the task was polled in expired; the task was asked for in the session that replaced it, and the
		 * server knew it there.
		 */
		SESSION_EXPIRED,

		/**
		 * The server process of a stdio upstream ended and a new one was started; the task was asked for in the new
		 * process, and the server knew it there.
		 */
		PROCESS_RESTARTED,

		/**
		 * The application process that started the task is gone (restarted, or a replica that died): another took the
		 * task up from the journal and follows it, in the session it is bound to.
		 */
		APPLICATION_RESTARTED

	}

}
