package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The response stream of a request ended before its JSON-RPC response arrived (connection
 * reset, end of stream, truncated body, event stream closed early). The request may have
 * executed on the server. Its identity is this type, never its message text.
 */
public class McpStreamLostException extends McpException {

	private final String method;

	private final String lastEventId;

	private final long retryMillis;

	private final boolean sessionGone;

	/**
	 * Creates an exception for a lost response stream.
	 * @param upstream the upstream name
	 * @param method the method of the request whose response was lost
	 * @param message what happened, and whether the request was re-issued
	 * @param cause the underlying failure
	 */
	public McpStreamLostException(String upstream, String method, String message, @Nullable Throwable cause) {
		this(upstream, method, message, cause, null, -1, false);
	}

	/**
	 * Creates an exception for a lost event stream that may be resumable.
	 * @param upstream the upstream name
	 * @param method the method of the request whose response was lost
	 * @param message what happened, and whether the request was re-issued
	 * @param cause the underlying failure
	 * @param lastEventId the id of the last event received
	 * @param retryMillis the reconnection delay the server asked for, or {@code -1}
	 * @param sessionGone whether resuming the stream showed its session gone
	 */
	public McpStreamLostException(String upstream, String method, String message, @Nullable Throwable cause,
			@Nullable String lastEventId, long retryMillis, boolean sessionGone) {
		super(upstream, message, cause);
		this.method = method;
		this.lastEventId = lastEventId;
		this.retryMillis = retryMillis;
		this.sessionGone = sessionGone;
	}

	/**
	 * Whether an attempt to resume the stream was answered 404: the session is gone, so the
	 * request can only be answered in a new session.
	 * @return {@code true} when the session is gone
	 */
	public boolean sessionGone() {
		return this.sessionGone;
	}

	/**
	 * The id of the last event received on the lost stream, from which a legacy stream may
	 * be resumed. Never part of the message: servers may embed session state in it.
	 * @return the event id, absent when the stream carried none
	 */
	public @Nullable String lastEventId() {
		return this.lastEventId;
	}

	/**
	 * The reconnection delay the server last asked for with {@code retry:}.
	 * @return the delay in milliseconds, or {@code -1} when the server named none
	 */
	public long retryMillis() {
		return this.retryMillis;
	}

	/**
	 * The method of the request whose response was lost.
	 * @return the method
	 */
	public String method() {
		return this.method;
	}

}
