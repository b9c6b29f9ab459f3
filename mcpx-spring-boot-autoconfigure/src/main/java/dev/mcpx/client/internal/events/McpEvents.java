package dev.mcpx.client.internal.events;

import java.util.List;

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
		this.listeners = List.copyOf(listeners);
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
