package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * Whether a tool may be called as a task: its {@code execution.taskSupport} (2025-11-25
 * basic/utilities/tasks §Tool-Level Negotiation).
 */
public enum TaskSupport {

	/** The client must not call the tool as a task; the default when the tool says nothing. */
	FORBIDDEN,

	/** The client may call the tool as a task or directly. */
	OPTIONAL,

	/** The client must call the tool as a task. */
	REQUIRED;

	/**
	 * Reads the wire value.
	 * @param value {@code forbidden}, {@code optional} or {@code required}; anything else, or
	 * none, is {@link #FORBIDDEN} (the spec's default)
	 * @return the support
	 */
	public static TaskSupport of(@Nullable String value) {
		if ("required".equals(value)) {
			return REQUIRED;
		}
		return "optional".equals(value) ? OPTIONAL : FORBIDDEN;
	}

}
