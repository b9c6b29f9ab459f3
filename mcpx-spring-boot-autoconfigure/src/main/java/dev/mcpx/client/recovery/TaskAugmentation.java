package dev.mcpx.client.recovery;

/**
 * When a call of a tool whose {@code execution.taskSupport} is {@code optional} asks the
 * server for a task (2025-11-25 basic/utilities/tasks §Tool-Level Negotiation). A
 * {@code required} tool is always called as a task and a {@code forbidden} one never,
 * whatever this says. Choosing a task is a recovery decision: once a call is a task, a lost
 * answer is found again by asking the task, never by sending the call again.
 */
public enum TaskAugmentation {

	/**
	 * A task exactly when the call would not be sent again after a lost response: when the
	 * {@link ReplayGate} refuses it (not annotated read-only or idempotent, configured
	 * {@code never}, untrusted annotations) or broken-stream recovery is off. The default.
	 */
	UNSAFE,

	/** Every call of an optional tool is a task. */
	ALWAYS,

	/** No call of an optional tool is a task. */
	NEVER

}
