package dev.mcpx.client.internal.transport;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

/**
 * A response stream ended before the response it was expected to carry: the request may
 * have executed.
 */
public final class StreamBrokenException extends IOException {

	private final @Nullable Resumption resumption;

	private final boolean sessionGone;

	private final @Nullable String notResumable;

	/**
	 * Creates an exception for a broken stream.
	 * @param message what ended the stream
	 * @param cause the I/O failure, absent for a clean end of stream
	 * @param resumption where the stream may be resumed from, absent when it cannot be
	 */
	public StreamBrokenException(@Nullable String message, @Nullable Throwable cause, @Nullable Resumption resumption) {
		this(message, cause, resumption, false);
	}

	/**
	 * Creates an exception for a broken stream whose session is gone too (a resumption
	 * answered 404; a stdio process that exited after the request was written).
	 * @param message what ended the stream
	 * @param cause the I/O failure, absent for a clean end of stream
	 * @param resumption where the stream may be resumed from, absent when it cannot be
	 * @param sessionGone whether the session the stream belonged to is gone
	 */
	public StreamBrokenException(@Nullable String message, @Nullable Throwable cause, @Nullable Resumption resumption,
			boolean sessionGone) {
		this(message, cause, resumption, sessionGone, null);
	}

	/**
	 * Creates an exception for a broken stream that carried event ids from which it cannot be
	 * resumed (they repeat, or are the session id): it is handled as a stream without ids.
	 * @param message what ended the stream
	 * @param cause the I/O failure, absent for a clean end of stream
	 * @param resumption where the stream may be resumed from, absent when it cannot be
	 * @param sessionGone whether the session the stream belonged to is gone
	 * @param notResumable why its event ids cannot resume it, absent when nothing says so
	 */
	public StreamBrokenException(@Nullable String message, @Nullable Throwable cause, @Nullable Resumption resumption,
			boolean sessionGone, @Nullable String notResumable) {
		super(message, cause);
		this.resumption = resumption;
		this.sessionGone = sessionGone;
		this.notResumable = notResumable;
	}

	/**
	 * Where the stream may be resumed from.
	 * @return the resumption, absent when the stream cannot be resumed
	 */
	public @Nullable Resumption resumption() {
		return this.resumption;
	}

	/**
	 * Whether the session the stream belonged to is gone, so the request can only be
	 * answered in a new session.
	 * @return {@code true} when the session is gone
	 */
	public boolean sessionGone() {
		return this.sessionGone;
	}

	/**
	 * Why the stream's event ids cannot resume it, so that no resumption was offered.
	 * @return the reason, absent when the stream had no such ids
	 */
	public @Nullable String notResumable() {
		return this.notResumable;
	}

}
