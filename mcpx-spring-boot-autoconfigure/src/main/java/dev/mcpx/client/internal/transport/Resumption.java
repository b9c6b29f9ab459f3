package dev.mcpx.client.internal.transport;

/**
 * Where a broken response stream may be resumed from: a token only the transport that
 * issued it reads, with the wait the server asked for before resuming (2025-11-25
 * basic/transports §Resumability and Redelivery; §Sending Messages, rule 6: the client
 * MUST respect {@code retry}).
 *
 * @param requestId the JSON-RPC id of the request whose response is awaited
 * @param lastEventId the id of the last event received
 * @param retryMillis the reconnection delay the server last asked for, or {@code -1}
 */
public record Resumption(long requestId, String lastEventId, long retryMillis) {

	/** The wait before resuming when the server named no {@code retry:}. */
	public static final long DEFAULT_DELAY_MILLIS = 100;

	/**
	 * The wait before resuming.
	 * @return milliseconds: what the server asked, or {@link #DEFAULT_DELAY_MILLIS}
	 */
	public long delayMillis() {
		return (this.retryMillis >= 0) ? this.retryMillis : DEFAULT_DELAY_MILLIS;
	}

	@Override
	public String toString() {
		// The event id may embed session state: never shown.
		return "Resumption[request " + this.requestId + ", retry " + this.retryMillis + " ms]";
	}

}
