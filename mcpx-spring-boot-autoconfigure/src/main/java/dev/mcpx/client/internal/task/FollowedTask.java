package dev.mcpx.client.internal.task;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;

/**
 * The handle of one task the client follows: its id, the tool it runs, the era it was created
 * in, the session it belongs to, and its last known state. A 2025-11-25 server may keep a task
 * in the session that created it (the TypeScript SDK does), so the session is part of the
 * handle: polls go to it while it lives, and to the new session, once, after it expired. A
 * 2026-07-28 task belongs to no session; the answers given to its input requests are kept with
 * it, so that each is asked of the application once (tasks extension §Task Update Requests:
 * keys are unique over the task's lifetime). What broke its following since the server last
 * answered about it is kept until told ({@link #resumedAfter()}), so that its resumption is
 * reported once.
 */
public final class FollowedTask {

	private final String tool;

	private final ProtocolEra era;

	private volatile @Nullable SessionState session;

	private volatile TaskState last;

	private volatile McpTaskResumedEvent.@Nullable Cause broken;

	private volatile boolean cancelAsked;

	/** Answers to the task's input requests, by key, and whether the server acknowledged them. */
	private final Map<String, Answer> answers = new LinkedHashMap<>();

	/**
	 * Starts following a 2025-11-25 task.
	 * @param tool the tool the task runs
	 * @param session the session its {@code CreateTaskResult} came in, absent in an era
	 * without sessions
	 * @param created its state as created
	 */
	public FollowedTask(String tool, @Nullable SessionState session, TaskState created) {
		this(tool, ProtocolEra.LEGACY, session, created);
	}

	/**
	 * Starts following a task.
	 * @param tool the tool the task runs
	 * @param era the era it was created in: how it is polled, answered and cancelled
	 * @param session the session its {@code CreateTaskResult} came in, absent in an era
	 * without sessions
	 * @param created its state as created
	 */
	public FollowedTask(String tool, ProtocolEra era, @Nullable SessionState session, TaskState created) {
		this.tool = tool;
		this.era = era;
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
	 * The era the task was created in.
	 * @return the era
	 */
	public ProtocolEra era() {
		return this.era;
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

	/**
	 * Whether this client asked the server to cancel the task, and the server acknowledged it.
	 * @return {@code true} once a {@code tasks/cancel} was answered
	 */
	public boolean cancelAsked() {
		return this.cancelAsked;
	}

	void cancelAcknowledged() {
		this.cancelAsked = true;
	}

	void movedTo(SessionState next) {
		this.session = next;
	}

	void seen(TaskState state) {
		this.last = state;
	}

	/** The answer given to an input request, absent when it was not asked yet. */
	synchronized @Nullable Answer answer(String key) {
		return this.answers.get(key);
	}

	synchronized void answered(String key, JsonNode answer) {
		this.answers.put(key, new Answer(answer, false));
	}

	synchronized void delivered(Iterable<String> keys) {
		for (String key : keys) {
			Answer answer = this.answers.get(key);
			if (answer != null) {
				this.answers.put(key, new Answer(answer.value(), true));
			}
		}
	}

	/**
	 * An answer to one input request.
	 * @param value what the application answered
	 * @param delivered whether the server acknowledged it ({@code tasks/update})
	 */
	record Answer(JsonNode value, boolean delivered) {
	}

}
