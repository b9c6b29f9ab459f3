package dev.mcpx.client.internal.transport;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

/**
 * A response stream ended before the response it was expected to carry.
 */
public final class StreamBrokenException extends IOException {

	private final String lastEventId;

	private final long retryMillis;

	private final boolean sessionGone;

	/**
	 * Creates an exception for a broken stream.
	 * @param message what ended the stream
	 * @param cause the I/O failure, absent for a clean end of stream
	 * @param lastEventId the id of the last event received
	 * @param retryMillis the last {@code retry:} delay received, or {@code -1}
	 */
	public StreamBrokenException(String message, @Nullable Throwable cause, @Nullable String lastEventId, long retryMillis) {
		this(message, cause, lastEventId, retryMillis, false);
	}

	/**
	 * Creates an exception for a broken stream whose resumption showed the session gone.
	 * @param message what ended the stream
	 * @param cause the I/O failure, absent for a clean end of stream
	 * @param lastEventId the id of the last event received
	 * @param retryMillis the last {@code retry:} delay received, or {@code -1}
	 * @param sessionGone whether a resumption attempt was answered 404
	 */
	public StreamBrokenException(String message, @Nullable Throwable cause, @Nullable String lastEventId, long retryMillis,
			boolean sessionGone) {
		super(message, cause);
		this.lastEventId = lastEventId;
		this.retryMillis = retryMillis;
		this.sessionGone = sessionGone;
	}

	/**
	 * Whether resuming the stream was answered 404: the session it belonged to is gone.
	 * @return {@code true} when the session is gone
	 */
	public boolean sessionGone() {
		return this.sessionGone;
	}

	/**
	 * The id of the last event received.
	 * @return the id
	 */
	public @Nullable String lastEventId() {
		return this.lastEventId;
	}

	/**
	 * The last reconnection delay received.
	 * @return milliseconds, or {@code -1}
	 */
	public long retryMillis() {
		return this.retryMillis;
	}

}
