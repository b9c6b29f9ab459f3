package dev.mcpx.client.event;

import java.util.Set;

import dev.mcpx.client.model.CatalogueKind;

/**
 * Cached listings of an upstream were dropped; the next read goes to the server. An
 * application may publish one itself to drop them.
 *
 * @param upstream the upstream name
 * @param kinds the kinds dropped
 * @param reason why, for example {@code notifications/tools/list_changed} or
 * {@code session recovered}
 */
public record McpCatalogueInvalidatedEvent(String upstream, Set<CatalogueKind> kinds, String reason)
		implements McpEvent {

	public McpCatalogueInvalidatedEvent {
		kinds = Set.copyOf(kinds);
	}

}
