package dev.mcpx.client;

import dev.mcpx.client.event.McpUpstreamChangedEvent;

/**
 * Hears the live set of {@link McpClients} change: an upstream added, replaced or removed
 * while the application runs. Called on the thread that changed the set, one change at a
 * time, in order, after the change took effect; a listener that throws is logged and
 * changes nothing. Registered with {@link McpClients#addListener}.
 */
public interface McpClientsListener {

	/**
	 * An upstream joined the live set.
	 * @param client its client
	 */
	default void added(McpClient client) {
	}

	/**
	 * An upstream's client was replaced by a new one: calls now go to {@code current}, and
	 * {@code previous} drains (the calls in flight on it finish, then it closes).
	 * @param previous the client replaced
	 * @param current the client now live under the same name
	 */
	default void replaced(McpClient previous, McpClient current) {
	}

	/**
	 * An upstream left the live set; its client drains (the calls in flight on it finish,
	 * then it closes).
	 * @param client the client removed
	 */
	default void removed(McpClient client) {
	}

	/**
	 * Any change of the live set, after the method of its kind above: what changed and why
	 * (the application, a refresh of the configuration, the service registry).
	 * @param event the change
	 */
	default void changed(McpUpstreamChangedEvent event) {
	}

}
