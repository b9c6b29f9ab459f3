package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * The status of a task (2025-11-25 basic/utilities/tasks §Task Status Lifecycle; the
 * 2026-07-28 tasks extension uses the same five).
 */
public enum McpTaskStatus {

	/** The request is being processed. */
	WORKING("working"),

	/** The receiver needs input from the requestor before it can go on. */
	INPUT_REQUIRED("input_required"),

	/** Finished; the result (which may be a tool error) is available. Terminal. */
	COMPLETED("completed"),

	/** Ended by an error. Terminal. */
	FAILED("failed"),

	/** Cancelled before it finished. Terminal. */
	CANCELLED("cancelled");

	private final String wire;

	McpTaskStatus(String wire) {
		this.wire = wire;
	}

	/**
	 * The status as the protocol spells it.
	 * @return for example {@code input_required}
	 */
	public String wire() {
		return this.wire;
	}

	/**
	 * Whether the task can no longer change (2025-11-25 basic/utilities/tasks §Task Status
	 * Lifecycle, rule 2.3).
	 * @return {@code true} for completed, failed and cancelled
	 */
	public boolean isTerminal() {
		return this == COMPLETED || this == FAILED || this == CANCELLED;
	}

	/**
	 * Reads the wire value.
	 * @param wire the status as sent
	 * @return the status, absent when it is none of the five
	 */
	public static @Nullable McpTaskStatus of(@Nullable String wire) {
		for (McpTaskStatus status : values()) {
			if (status.wire.equals(wire)) {
				return status;
			}
		}
		return null;
	}

}
