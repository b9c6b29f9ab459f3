package dev.mcpx.client.internal.transport;

/**
 * How a stream of unsolicited messages ended.
 */
public enum ListenOutcome {

	/** The stream ended or the server closed it: open it again later. */
	ENDED,

	/** The connection broke: open it again later. */
	BROKEN,

	/** The server offers no such stream (for HTTP: 405, or not an event stream). */
	NOT_OFFERED,

	/** The session the stream belonged to is gone (for HTTP: 404). */
	SESSION_GONE

}
