package dev.mcpx.client.internal.transport.http;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.internal.transport.StreamBrokenException;

/**
 * What a response's event stream that broke before its response leaves to the caller:
 * where it may be resumed, if anywhere. Asked only when a stream breaks.
 */
final class BrokenStreams {

	private BrokenStreams() {
	}

	/**
	 * Whether an event id is the session id.
	 * @param eventId the event's id, absent for none
	 * @param sessionId the stream's session id, absent for none
	 * @return {@code true} when both are present and equal
	 */
	static boolean named(@Nullable String eventId, @Nullable String sessionId) {
		return sessionId != null && sessionId.equals(eventId);
	}

	/**
	 * A stream that broke before its response, with where to resume it: from the last complete
	 * event's id, unless the stream's ids cannot name a point in it. Ids that repeat, or a
	 * server that names events by the session id (Spring AI's server gives the events of its
	 * responses that id, even the one cut), would make the server replay nothing while the
	 * caller waits for the resumption's patience; such a stream is handled at once as one
	 * without ids (2025-11-25 basic/transports §Resumability and Redelivery, rule 1: event ids
	 * are unique across the session's streams). An empty id names nothing either (WHATWG HTML
	 * §9.2.6: no {@code Last-Event-ID} is sent then).
	 */
	static StreamBrokenException of(String message, @Nullable Throwable cause, long id, SseParser parser,
			long retry, boolean namedBySession) {
		String lastEventId = parser.lastEventId();
		if (lastEventId == null || lastEventId.isEmpty()) {
			return new StreamBrokenException(message, cause, null);
		}
		String notResumable = namedBySession ? "its event ids are the session id"
				: parser.idsRepeat() ? "its event ids repeat" : null;
		if (notResumable != null) {
			return new StreamBrokenException(message + "; not resumed: " + notResumable, cause, null, false,
					notResumable);
		}
		return new StreamBrokenException(message, cause, new Resumption(id, lastEventId, retry));
	}

}
