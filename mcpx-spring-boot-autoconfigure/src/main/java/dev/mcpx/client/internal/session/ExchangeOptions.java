package dev.mcpx.client.internal.session;

/**
 * How one exchange behaves where the eras differ.
 *
 * @param resumptionAttempts how often a broken event stream is resumed with
 * {@code Last-Event-ID}; 0 for never (modern streams are not resumable)
 * @param notifyCancellation whether a timed-out request is cancelled with
 * {@code notifications/cancelled} (legacy); on modern Streamable HTTP closing the stream
 * is the cancellation (2026-07-28 transports/streamable-http §Cancellation)
 * @param answerServerRequests whether requests the server sends on a stream are answered
 * (legacy); a modern client never sends responses (§Sending Messages rule 4)
 */
public record ExchangeOptions(int resumptionAttempts, boolean notifyCancellation, boolean answerServerRequests) {

	/**
	 * The legacy era's behaviour.
	 * @param resumptionAttempts how often a broken stream is resumed
	 * @return the options
	 */
	public static ExchangeOptions legacy(int resumptionAttempts) {
		return new ExchangeOptions(resumptionAttempts, true, true);
	}

	/**
	 * The modern era's behaviour.
	 * @return the options
	 */
	public static ExchangeOptions modern() {
		return new ExchangeOptions(0, false, false);
	}

}
