package dev.mcpx.client.event;

/**
 * Receives a client's events, on the thread that caused them. A listener that throws
 * never breaks a call: its failure is logged and ignored.
 */
@FunctionalInterface
public interface McpEventListener {

	/**
	 * Called for each event.
	 * @param event the event
	 */
	void onEvent(McpEvent event);

}
