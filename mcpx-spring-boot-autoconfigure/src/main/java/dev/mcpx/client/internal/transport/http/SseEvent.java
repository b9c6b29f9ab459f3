package dev.mcpx.client.internal.transport.http;

import org.jspecify.annotations.Nullable;

/**
 * One dispatched server-sent event.
 *
 * @param id the event id, absent when the event set none
 * @param type the event type ({@code message} unless the server named another)
 * @param data the data lines joined by {@code \n}; empty for a priming event
 * @param retryMillis the reconnection delay the event asked for, or {@code -1}
 */
public record SseEvent(@Nullable String id, String type, String data, long retryMillis) {

	/**
	 * Whether the event carries data to process (a priming event carries none).
	 * @return {@code true} when {@code data} is not empty
	 */
	public boolean hasData() {
		return !this.data.isEmpty();
	}

}
