package dev.mcpx.client.event;

/**
 * Why a request might be sent a second time.
 */
public enum ReplayCause {

	/**
	 * The server rejected the request's session (HTTP 404, or a 400 naming the session)
	 * before running it.
	 */
	SESSION_EXPIRED,

	/**
	 * The request's response stream broke before its response; the server may have run it.
	 */
	STREAM_LOST,

	/**
	 * The server refused the request's credentials (HTTP 401) before running it.
	 */
	CREDENTIALS_REFRESHED,

	/**
	 * The server refused the request's protocol version before running it; the client
	 * picked a version both support.
	 */
	VERSION_RENEGOTIATED,

	/**
	 * The server turned out to speak the other protocol era; the client detected it again.
	 */
	ERA_CHANGED,

	/**
	 * The server rejected a tool call's mirrored headers (-32020) before running it; the
	 * tool's declarations were listed again and the headers corrected.
	 */
	HEADERS_CORRECTED,

	/**
	 * The server process of a stdio upstream ended while the request was pending, or before
	 * it was sent; a new process was started. The server may have run a request it had
	 * read.
	 */
	PROCESS_EXITED

}
