package dev.mcpx.client;

import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.event.McpCatalogueInvalidatedEvent;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.model.CatalogueKind;

/**
 * The cached tools, prompts, resources and resource templates of one upstream, as an
 * application sees them: what is cached, and a way to drop it. A listing is served without
 * a round trip while fresh: for the time the server's {@code ttlMs} gave (2026-07-28
 * server/utilities/caching; 0 when absent), or the configured default for legacy servers,
 * which give none. It is dropped early by a {@code list_changed} notification of its kind,
 * by a recovered session (a new session may serve a new catalogue), or by
 * {@link #invalidate(Set, String)}; every drop is announced with an
 * {@link McpCatalogueInvalidatedEvent}.
 * <p>
 * An upstream that acts for each user keeps one catalogue per user (a server may list
 * different tools to different users): {@link #invalidate(Set, String)} drops the listings
 * of every user, and {@link #snapshot()} is empty, as no user's listing is shown to others.
 */
public final class McpCatalogue {

	private final @Nullable Catalogue catalogue;

	/** The catalogues of each user's client, for an upstream that acts for each user. */
	private final Supplier<List<McpCatalogue>> users;

	McpCatalogue(Catalogue catalogue) {
		this.catalogue = catalogue;
		this.users = List::of;
	}

	McpCatalogue(Supplier<List<McpCatalogue>> users) {
		this.catalogue = null;
		this.users = users;
	}

	/**
	 * Drops listings: the next read of each goes to the server.
	 * @param kinds the kinds to drop
	 * @param reason why, for the event
	 */
	public void invalidate(Set<CatalogueKind> kinds, String reason) {
		Catalogue own = this.catalogue;
		if (own != null) {
			own.invalidate(kinds, reason);
		}
		this.users.get().forEach((user) -> user.invalidate(kinds, reason));
	}

	/**
	 * What is cached, for operators.
	 * @return per kind: size, when fetched, until when fresh; kinds never listed are absent
	 */
	public Map<CatalogueKind, Entry> snapshot() {
		Map<CatalogueKind, Entry> snapshot = new EnumMap<>(CatalogueKind.class);
		Catalogue own = this.catalogue;
		if (own == null) {
			return snapshot;
		}
		own.snapshot()
			.forEach((kind, entry) -> snapshot.put(kind,
					new Entry(entry.items(), entry.fetchedAt(), entry.freshUntil())));
		return snapshot;
	}

	@Override
	public String toString() {
		return "McpCatalogue" + snapshot().keySet();
	}

	/**
	 * One cached listing.
	 *
	 * @param items the items
	 * @param fetchedAt when it was received
	 * @param freshUntil until when it is served without a round trip
	 */
	public record Entry(List<?> items, Instant fetchedAt, Instant freshUntil) {

		/**
		 * Whether the listing is fresh at the given time.
		 * @param now the time
		 * @return {@code true} while fresh
		 */
		public boolean isFresh(Instant now) {
			return now.isBefore(this.freshUntil);
		}

	}

}
