package dev.mcpx.client.internal.events;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpEventListener;

/**
 * Delivers a client's events to its listeners, so that a listener that throws never
 * breaks the call that caused the event.
 */
public final class McpEvents {

	private static final Log logger = LogFactory.getLog(McpEvents.class);

	private final List<McpEventListener> listeners;

	/**
	 * Creates a publisher for the given listeners.
	 * @param listeners the listeners, called in order
	 */
	public McpEvents(List<McpEventListener> listeners) {
		this.listeners = new CopyOnWriteArrayList<>(listeners);
	}

	/**
	 * Adds a listener, called after those already there; for parts of the client that are
	 * built after the publisher they publish through.
	 * @param listener the listener
	 */
	public void add(McpEventListener listener) {
		this.listeners.add(listener);
	}

	/**
	 * Delivers an event to every listener.
	 * @param event the event
	 */
	public void publish(McpEvent event) {
		for (McpEventListener listener : this.listeners) {
			try {
				listener.onEvent(event);
			}
			catch (RuntimeException ex) {
				logger.warn("[" + event.upstream() + "] an event listener failed on " + event, ex);
			}
		}
	}

}
