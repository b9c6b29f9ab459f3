package dev.mcpx.client.recovery;

/**
 * Whether a tool's call may be sent a second time after its first attempt's fate became
 * unknown.
 */
public enum ToolReplay {

	/** Always send it again: the application knows a second run is harmless. */
	ALWAYS,

	/** Never send it again, whatever the annotations say. */
	NEVER,

	/** Decide from the tool's list-time annotations ({@code readOnlyHint}, {@code idempotentHint}). */
	ANNOTATIONS

}
