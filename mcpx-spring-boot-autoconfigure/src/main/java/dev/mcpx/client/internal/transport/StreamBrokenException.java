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
		super(message, cause);
		this.resumption = resumption;
		this.sessionGone = sessionGone;
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

}
