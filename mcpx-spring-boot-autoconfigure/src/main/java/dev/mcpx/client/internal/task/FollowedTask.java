package dev.mcpx.client.internal.task;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.internal.session.SessionState;

/**
 * The handle of one task the client follows: its id, the tool it runs, the session it
 * belongs to, and its last known state. A 2025-11-25 server may keep a task in the session
 * that created it (the TypeScript SDK does), so the session is part of the handle: polls go
 * to it while it lives, and to the new session, once, after it expired. What broke its
 * following since the server last answered about it is kept until told
 * ({@link #resumedAfter()}), so that its resumption is reported once.
 */
public final class FollowedTask {

	private final String tool;

	private volatile @Nullable SessionState session;

	private volatile TaskState last;

	private volatile McpTaskResumedEvent.@Nullable Cause broken;

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

	/**
	 * What broke the task's following before the server's last answer about it, told once.
	 * @return the cause, or {@code null} when nothing broke since it was last told
	 */
	public McpTaskResumedEvent.@Nullable Cause resumedAfter() {
		synchronized (this) {
			McpTaskResumedEvent.Cause cause = this.broken;
			this.broken = null;
			return cause;
		}
	}

	/** A request about the task failed, after which it is asked about again. */
	void broken(McpTaskResumedEvent.Cause cause) {
		synchronized (this) {
			// a new session or process says more than a lost answer in it
			if (this.broken == null || this.broken == McpTaskResumedEvent.Cause.STREAM_LOST) {
				this.broken = cause;
			}
		}
	}

	void movedTo(SessionState next) {
		this.session = next;
	}

	void seen(TaskState state) {
		this.last = state;
	}

}
