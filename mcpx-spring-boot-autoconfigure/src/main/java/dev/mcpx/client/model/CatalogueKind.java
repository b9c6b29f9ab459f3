package dev.mcpx.client.model;

import java.util.EnumSet;
import java.util.Set;

/**
 * The kinds of things an upstream lists, each cached on its own.
 */
public enum CatalogueKind {

	/** {@code tools/list}. */
	TOOLS,

	/** {@code prompts/list}. */
	PROMPTS,

	/** {@code resources/list}. */
	RESOURCES,

	/** {@code resources/templates/list}. */
	RESOURCE_TEMPLATES;

	/**
	 * The kinds a {@code list_changed} notification invalidates.
	 * @param method the notification method
	 * @return the kinds, empty for any other notification
	 */
	public static Set<CatalogueKind> changedBy(String method) {
		return switch (method) {
			case "notifications/tools/list_changed" -> EnumSet.of(TOOLS);
			case "notifications/prompts/list_changed" -> EnumSet.of(PROMPTS);
			// Templates are resources too: a changed resource list may change them.
			case "notifications/resources/list_changed" -> EnumSet.of(RESOURCES, RESOURCE_TEMPLATES);
			default -> EnumSet.noneOf(CatalogueKind.class);
		};
	}

}
