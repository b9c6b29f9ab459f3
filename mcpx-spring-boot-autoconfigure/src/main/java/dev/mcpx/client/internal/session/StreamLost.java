package dev.mcpx.client.internal.session;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.internal.transport.StreamBrokenException;

/**
 * A lost response stream as the recovery layer sees it: the public failure, with where the
 * stream may be resumed from and whether its session is gone too. A caller that receives
 * it sees an {@link McpStreamLostException}; the rest is plumbing, kept off the public type.
 */
public final class StreamLost extends McpStreamLostException {

	private final @Nullable Resumption resumption;

	private final boolean sessionGone;

	private final boolean responseStarted;

	private final @Nullable String notResumable;

	/**
	 * Creates the failure.
	 * @param upstream the upstream name
	 * @param method the method of the request whose response was lost
	 * @param message what happened
	 * @param cause the transport's failure
	 * @param resumption where the stream may be resumed from, absent when it cannot be
	 * @param sessionGone whether the session the stream belonged to is gone
	 */
	public StreamLost(String upstream, String method, String message, Throwable cause,
			@Nullable Resumption resumption, boolean sessionGone) {
		this(upstream, method, message, cause, resumption, sessionGone, null);
	}

	/**
	 * Creates the failure of a stream whose event ids could not resume it.
	 * @param upstream the upstream name
	 * @param method the method of the request whose response was lost
	 * @param message what happened
	 * @param cause the transport's failure
	 * @param resumption where the stream may be resumed from, absent when it cannot be
	 * @param sessionGone whether the session the stream belonged to is gone
	 * @param notResumable why the stream's event ids cannot resume it, absent when nothing
	 * says so
	 */
	public StreamLost(String upstream, String method, String message, Throwable cause,
			@Nullable Resumption resumption, boolean sessionGone, @Nullable String notResumable) {
		this(upstream, method, message, cause, resumption, sessionGone, cause instanceof StreamBrokenException,
				notResumable);
	}

	private StreamLost(String upstream, String method, String message, Throwable cause,
			@Nullable Resumption resumption, boolean sessionGone, boolean responseStarted,
			@Nullable String notResumable) {
		super(upstream, method, message, cause);
		this.resumption = resumption;
		this.sessionGone = sessionGone;
		this.responseStarted = responseStarted;
		this.notResumable = notResumable;
	}

	/**
	 * A copy with another message, for the failure the caller finally sees.
	 * @param message what happened, and why the request was not re-issued
	 * @return the copy, caused by this failure
	 */
	public StreamLost withMessage(String message) {
		return new StreamLost(upstream(), method(), message, this, this.resumption, this.sessionGone,
				this.responseStarted, this.notResumable);
	}

	/**
	 * Where the stream may be resumed from.
	 * @return the resumption, absent when it cannot be resumed
	 */
	public @Nullable Resumption resumption() {
		return this.resumption;
	}

	/**
	 * Whether resuming the stream showed its session gone, so the request can only be
	 * answered in a new session.
	 * @return {@code true} when the session is gone
	 */
	public boolean sessionGone() {
		return this.sessionGone;
	}

	/**
	 * Why the stream was not resumed although it carried event ids: they cannot say where to
	 * resume from (they repeat, or are the session id).
	 * @return the reason, absent when the stream had no such ids
	 */
	public @Nullable String notResumable() {
		return this.notResumable;
	}

	/**
	 * Whether the response had started (a stream that broke) rather than the connection
	 * dying before any response, which leaves stale pooled connections behind.
	 * @return {@code true} when a response had started
	 */
	public boolean responseStarted() {
		return this.responseStarted;
	}

}
