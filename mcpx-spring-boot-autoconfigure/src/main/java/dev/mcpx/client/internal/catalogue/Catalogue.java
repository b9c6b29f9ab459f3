package dev.mcpx.client.internal.catalogue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.event.McpCatalogueInvalidatedEvent;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.model.CatalogueKind;
import dev.mcpx.client.model.Tool;

/**
 * The cached tools, prompts, resources and resource templates of one upstream. A listing
 * is served without a round trip while fresh: for the time the server's {@code ttlMs} gave
 * (2026-07-28 server/utilities/caching; 0 when absent), or the configured default for
 * legacy servers, which give none. It is dropped early by a {@code list_changed}
 * notification of its kind, by a recovered session (a new session may serve a new
 * catalogue), or on request; every drop is announced with an
 * {@link McpCatalogueInvalidatedEvent}.
 */
public final class Catalogue {

	private final String upstream;

	private final Duration defaultTtl;

	private final Clock clock;

	private final McpEvents events;

	private final Map<CatalogueKind, Slot> slots = new EnumMap<>(CatalogueKind.class);

	private final ToolRegistry tools;

	/**
	 * Creates the catalogue of one client.
	 * @param upstream the upstream name
	 * @param defaultTtl how long a listing stays fresh when the server gives no
	 * {@code ttlMs}
	 * @param clock the clock of freshness
	 * @param events where invalidations are announced
	 */
	public Catalogue(String upstream, Duration defaultTtl, Clock clock, McpEvents events) {
		this(upstream, defaultTtl, clock, events, new ToolRegistry());
	}

	Catalogue(String upstream, Duration defaultTtl, Clock clock, McpEvents events, ToolRegistry tools) {
		this.tools = tools;
		this.upstream = upstream;
		this.defaultTtl = defaultTtl;
		this.clock = clock;
		this.events = events;
		for (CatalogueKind kind : CatalogueKind.values()) {
			this.slots.put(kind, new Slot());
		}
	}

	/**
	 * The listing of a kind: the cached one while fresh, else fetched now (once, however
	 * many threads ask).
	 * @param <T> the item type
	 * @param kind the kind
	 * @param fetch lists from the server
	 * @return the items
	 */
	@SuppressWarnings("unchecked")
	public <T> List<T> get(CatalogueKind kind, Supplier<Listing<T>> fetch) {
		Slot slot = slot(kind);
		Entry current = slot.entry;
		Instant now = this.clock.instant();
		if (current != null && current.isFresh(now)) {
			return (List<T>) current.items();
		}
		synchronized (slot) {
			current = slot.entry;
			if (current != null && current.isFresh(this.clock.instant())) {
				return (List<T>) current.items();
			}
			long invalidations = slot.invalidations;
			Listing<T> listing = fetch.get();
			if (kind == CatalogueKind.TOOLS) {
				// The replay gate's evidence comes from the same listing as the cache.
				this.tools.remember((List<Tool>) listing.items());
			}
			Instant received = this.clock.instant();
			Duration ttl = (listing.ttl() != null) ? listing.ttl() : this.defaultTtl;
			// An invalidation during the fetch makes its result stale at once.
			Instant freshUntil = (slot.invalidations == invalidations) ? received.plus(ttl) : received;
			slot.entry = new Entry(List.copyOf(listing.items()), received, freshUntil);
			return listing.items();
		}
	}

	/**
	 * Fetches a listing now, fresh or not, and caches it.
	 * @param <T> the item type
	 * @param kind the kind
	 * @param fetch lists from the server
	 * @return the items
	 */
	public <T> List<T> refresh(CatalogueKind kind, Supplier<Listing<T>> fetch) {
		Slot slot = slot(kind);
		synchronized (slot) {
			Entry current = slot.entry;
			if (current != null) {
				slot.entry = current.staleAt(this.clock.instant());
			}
		}
		return get(kind, fetch);
	}

	/**
	 * Drops listings: the next read of each goes to the server.
	 * @param kinds the kinds to drop
	 * @param reason why, for the event
	 */
	public void invalidate(Set<CatalogueKind> kinds, String reason) {
		Set<CatalogueKind> dropped = EnumSet.noneOf(CatalogueKind.class);
		Instant now = this.clock.instant();
		for (CatalogueKind kind : kinds) {
			Slot slot = slot(kind);
			synchronized (slot.counter) {
				slot.invalidations++;
			}
			Entry entry = slot.entry;
			if (entry != null && entry.isFresh(now)) {
				slot.entry = entry.staleAt(now);
				dropped.add(kind);
			}
		}
		if (!dropped.isEmpty()) {
			this.tools.forgetAbsent();
			this.events.publish(new McpCatalogueInvalidatedEvent(this.upstream, dropped, reason));
		}
	}

	/**
	 * What is cached, for operators.
	 * @return per kind: size, when fetched, until when fresh; kinds never listed are absent
	 */
	public Map<CatalogueKind, Entry> snapshot() {
		Map<CatalogueKind, Entry> snapshot = new EnumMap<>(CatalogueKind.class);
		this.slots.forEach((kind, slot) -> {
			if (slot.entry != null) {
				snapshot.put(kind, slot.entry);
			}
		});
		return snapshot;
	}

	/**
	 * What the client learned about tools at list time: the replay gate's evidence and the
	 * headers of modern tool calls, filled by every tools listing of this catalogue.
	 * @return the tools' registry
	 */
	public ToolRegistry tools() {
		return this.tools;
	}

	/**
	 * A new session replaced a dead one: it may serve a new catalogue.
	 * @param generation the new session's generation
	 */
	public void sessionRenewed(long generation) {
		this.tools.forgetAbsent();
		invalidate(EnumSet.allOf(CatalogueKind.class), "session recovered (generation " + generation + ")");
	}

	/**
	 * Drops the listings a {@code notifications/.../list_changed} names (2025-11-25
	 * server/tools §List Changed Notification, and its prompts and resources siblings).
	 * @param method the notification's method
	 */
	public void listChanged(String method) {
		Set<CatalogueKind> kinds = CatalogueKind.changedBy(method);
		if (!kinds.isEmpty()) {
			invalidate(kinds, method);
		}
	}

	/**
	 * One fetched listing.
	 *
	 * @param <T> the item type
	 * @param items the items
	 * @param ttl how long it stays fresh, absent for the catalogue's default
	 */
	public record Listing<T>(List<T> items, @Nullable Duration ttl) {
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

		Entry staleAt(Instant now) {
			return new Entry(this.items, this.fetchedAt, now);
		}

	}

	/** The constructor made a slot for every kind. */
	private Slot slot(CatalogueKind kind) {
		return Objects.requireNonNull(this.slots.get(kind));
	}

	private static final class Slot {

		private final Object counter = new Object();

		private volatile @Nullable Entry entry;

		/** Guarded by {@code counter}; read under the slot's lock during a fetch. */
		private volatile long invalidations;

	}

}
