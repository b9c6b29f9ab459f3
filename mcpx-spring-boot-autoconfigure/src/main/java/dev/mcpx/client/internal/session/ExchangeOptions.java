package dev.mcpx.client.internal.session;

/**
 * How one exchange behaves where the eras differ.
 *
 * @param resumable whether a broken event stream may be resumed with
 * {@code Last-Event-ID} (legacy); modern streams are not resumable (2026-07-28 changelog)
 * @param notifyCancellation whether a timed-out request is cancelled with
 * {@code notifications/cancelled} (legacy); on modern Streamable HTTP closing the stream
 * is the cancellation (2026-07-28 transports/streamable-http §Cancellation)
 * @param answerServerRequests whether requests the server sends on a stream are answered
 * (legacy); a modern client never sends responses (§Sending Messages rule 4)
 */
public record ExchangeOptions(boolean resumable, boolean notifyCancellation, boolean answerServerRequests) {

	/** The legacy era's behaviour. */
	public static final ExchangeOptions LEGACY = new ExchangeOptions(true, true, true);

	/** The legacy handshake: nothing to resume or cancel before a session exists. */
	public static final ExchangeOptions HANDSHAKE = new ExchangeOptions(false, true, true);

	/** The modern era's behaviour. */
	public static final ExchangeOptions MODERN = new ExchangeOptions(false, false, false);

}
