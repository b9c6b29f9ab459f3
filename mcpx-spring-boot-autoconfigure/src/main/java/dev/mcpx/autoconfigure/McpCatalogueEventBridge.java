package dev.mcpx.autoconfigure;

import org.springframework.context.event.EventListener;

import dev.mcpx.client.McpClients;
import dev.mcpx.client.event.McpCatalogueInvalidatedEvent;

/**
 * Lets an application drop cached listings by publishing an
 * {@link McpCatalogueInvalidatedEvent} for an upstream. The catalogue announces its own
 * drops with the same event; those arrive here too and change nothing, since a dropped
 * listing is not dropped twice.
 */
public class McpCatalogueEventBridge {

	private final McpClients clients;

	/**
	 * Creates the bridge.
	 * @param clients every client
	 */
	public McpCatalogueEventBridge(McpClients clients) {
		this.clients = clients;
	}

	/**
	 * Drops the named kinds of the event's upstream, if it is one of ours.
	 * @param event the event
	 */
	@EventListener
	public void onCatalogueInvalidated(McpCatalogueInvalidatedEvent event) {
		this.clients.find(event.upstream())
			.ifPresent((client) -> client.catalogue().invalidate(event.kinds(), event.reason()));
	}

}
