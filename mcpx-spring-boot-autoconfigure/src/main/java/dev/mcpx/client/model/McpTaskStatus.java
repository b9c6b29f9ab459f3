package dev.mcpx.client.model;

/**
 * Where a task stands (2025-11-25 basic/utilities/tasks §Task Status; 2026-07-28 tasks extension). The five server
 * statuses, plus {@link #LOST}, which only the client assigns.
 */
public enum McpTaskStatus {

	/** The server is working on the request. */
	WORKING("working"),

	/** The server waits for input from the client (an elicitation, a sampling request, {@code inputRequests}). */
	INPUT_REQUIRED("input_required"),

	/** The request finished; its result is the task's outcome. */
	COMPLETED("completed"),

	/** The request failed (a JSON-RPC error, or a tool result with {@code isError: true}). */
	FAILED("failed"),

	/** The task was cancelled. */
	CANCELLED("cancelled"),

	/**
	 * Not a server status: the server no longer knows the task (its answer was {@code -32602}, or the task's TTL has
	 * passed), so its outcome will never be known. The work may have run.
	 */
	LOST("lost");

	private final String wireName;

	McpTaskStatus(String wireName) {
		this.wireName = wireName;
	}

	/**
	 * The status as the protocol writes it ({@code "input_required"}), and as a journal stores it.
	 * @return the wire name; {@code "lost"} for {@link #LOST}, which no server sends
	 */
	public String wireName() {
		return this.wireName;
	}

	/**
	 * Whether the task can change no more: completed, failed, cancelled or lost (2025-11-25
	 * basic/utilities/tasks §Task Status Lifecycle: a terminal status never changes).
	 * @return true for a terminal status
	 */
	public boolean isTerminal() {
		return this != WORKING && this != INPUT_REQUIRED;
	}

	/**
	 * The status a wire name stands for.
	 * @param wireName a status as the protocol or a journal writes it
	 * @return the status
	 * @throws IllegalArgumentException naming the value, for a status this client does not know
	 */
	public static McpTaskStatus ofWireName(String wireName) {
		for (McpTaskStatus status : values()) {
			if (status.wireName.equals(wireName)) {
				return status;
			}
		}
		throw new IllegalArgumentException("Unknown task status '" + wireName + "'");
	}

}
