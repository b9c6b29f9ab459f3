package dev.mcpx.client.internal.recovery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.protocol.JsonRpc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Lists every page of a listing, following {@code nextCursor} until it ends (2025-11-25
 * basic/utilities/pagination). A cursor the server repeats would loop forever, so it ends
 * the listing with an error instead. A cursor belongs to its session: when the session
 * expires mid-listing, the session expiry rule refuses to replay the page and the listing
 * restarts, once, from its first page in the new session.
 */
public final class Pagination {

	/** Restarts of one listing: a second expiry mid-listing is the answer, never a loop. */
	static final int MAX_RESTARTS = 1;

	private final String upstream;

	private final JsonRpc jsonRpc;

	/**
	 * Creates the pagination of one client.
	 * @param upstream the upstream name
	 * @param jsonRpc builds the parameters of later pages
	 */
	public Pagination(String upstream, JsonRpc jsonRpc) {
		this.upstream = upstream;
		this.jsonRpc = jsonRpc;
	}

	/**
	 * Lists every page.
	 * @param <T> the item type
	 * @param method the list method
	 * @param field the result member holding the items
	 * @param mapper maps one item
	 * @param pageTtl how long one page stays fresh, absent for the catalogue's default
	 * @param send sends one page request (method, parameters) through the recovery loop
	 * @return the items of every page, fresh as long as the least fresh page
	 */
	public <T> Catalogue.Listing<T> listAll(String method, String field, Function<JsonNode, T> mapper,
			Function<JsonNode, @Nullable Duration> pageTtl, BiFunction<String, @Nullable JsonNode, JsonNode> send) {
		for (int restarts = 0;; restarts++) {
			try {
				return listPages(method, field, mapper, pageTtl, send);
			}
			catch (ListingRestart restart) {
				if (restarts >= MAX_RESTARTS) {
					throw restart.expiry();
				}
			}
		}
	}

	private <T> Catalogue.Listing<T> listPages(String method, String field, Function<JsonNode, T> mapper,
			Function<JsonNode, @Nullable Duration> pageTtl, BiFunction<String, @Nullable JsonNode, JsonNode> send) {
		List<T> items = new ArrayList<>();
		Duration ttl = null;
		Set<String> seenCursors = new HashSet<>();
		String cursor = null;
		do {
			ObjectNode params = null;
			if (cursor != null) {
				params = this.jsonRpc.object();
				params.put("cursor", cursor);
			}
			JsonNode page = send.apply(method, params);
			for (JsonNode item : page.path(field)) {
				items.add(mapper.apply(item));
			}
			ttl = shorter(ttl, pageTtl.apply(page));
			JsonNode next = page.get("nextCursor");
			cursor = (next != null && next.isString()) ? next.stringValue() : null;
			if (cursor != null && !seenCursors.add(cursor)) {
				throw new McpProtocolException(this.upstream, method + " returned a cursor it had already returned",
						null);
			}
		}
		while (cursor != null);
		return new Catalogue.Listing<>(List.copyOf(items), ttl);
	}

	/** The listing is fresh while every page is: the shortest page freshness wins. */
	private static @Nullable Duration shorter(@Nullable Duration a, @Nullable Duration b) {
		if (a == null) {
			return b;
		}
		return (b == null || a.compareTo(b) <= 0) ? a : b;
	}

}
