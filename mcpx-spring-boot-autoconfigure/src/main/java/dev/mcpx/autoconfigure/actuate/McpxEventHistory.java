package dev.mcpx.autoconfigure.actuate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.springframework.context.event.EventListener;

import dev.mcpx.client.event.McpEvent;

/**
 * The most recent events of every client, oldest first, for the {@code mcpx} endpoint:
 * kept in memory as the events are published, the oldest dropped beyond the capacity.
 */
public class McpxEventHistory {

	/** Enough for the last few incidents of a handful of upstreams; older ones are in the logs. */
	public static final int DEFAULT_CAPACITY = 50;

	private final int capacity;

	private final Clock clock;

	private final Deque<Entry> entries = new ArrayDeque<>();

	/**
	 * Creates a history of the last {@value #DEFAULT_CAPACITY} events.
	 */
	public McpxEventHistory() {
		this(DEFAULT_CAPACITY, Clock.systemUTC());
	}

	/**
	 * Creates a history.
	 * @param capacity how many events are kept
	 * @param clock stamps each event as it arrives
	 */
	public McpxEventHistory(int capacity, Clock clock) {
		if (capacity < 1) {
			throw new IllegalArgumentException("The capacity must be 1 or more, was " + capacity);
		}
		this.capacity = capacity;
		this.clock = clock;
	}

	/**
	 * Keeps an event, dropping the oldest one if the history is full.
	 * @param event the event
	 */
	@EventListener
	public void onEvent(McpEvent event) {
		Entry entry = new Entry(this.clock.instant(), event);
		synchronized (this.entries) {
			if (this.entries.size() == this.capacity) {
				this.entries.removeFirst();
			}
			this.entries.addLast(entry);
		}
	}

	/**
	 * The events kept, oldest first.
	 * @return a copy of the history
	 */
	public List<Entry> recent() {
		synchronized (this.entries) {
			return List.copyOf(this.entries);
		}
	}

	/**
	 * One event and when it was published.
	 *
	 * @param at when the event was published
	 * @param event the event
	 */
	public record Entry(Instant at, McpEvent event) {
	}

}
