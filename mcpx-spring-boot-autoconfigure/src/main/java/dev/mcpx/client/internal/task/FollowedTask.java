package dev.mcpx.client.internal.task;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.session.SessionState;

/**
 * The handle of one task the client follows: its id, the tool it runs, the session it
 * belongs to, and its last known state. A 2025-11-25 server may keep a task in the session
 * that created it (the TypeScript SDK does), so the session is part of the handle: polls go
 * to it while it lives, and to the new session, once, after it expired.
 */
public final class FollowedTask {

	private final String tool;

	private volatile @Nullable SessionState session;

	private volatile TaskState last;

	/**
	 * Starts following a task.
	 * @param tool the tool the task runs
	 * @param session the session its {@code CreateTaskResult} came in, absent in an era
	 * without sessions
	 * @param created its state as created
	 */
	public FollowedTask(String tool, @Nullable SessionState session, TaskState created) {
		this.tool = tool;
		this.session = session;
		this.last = created;
	}

	/**
	 * The task id.
	 * @return the id the server gave it
	 */
	public String taskId() {
		return this.last.taskId();
	}

	/**
	 * The tool the task runs.
	 * @return the tool name
	 */
	public String tool() {
		return this.tool;
	}

	/**
	 * The session the task is polled in.
	 * @return the session, absent in an era without sessions
	 */
	public @Nullable SessionState session() {
		return this.session;
	}

	/**
	 * The task's last known state.
	 * @return the state
	 */
	public TaskState last() {
		return this.last;
	}

	void movedTo(SessionState next) {
		this.session = next;
	}

	void seen(TaskState state) {
		this.last = state;
	}

}
