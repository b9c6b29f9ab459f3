package dev.mcpx.client.recovery;

/**
 * The replay gate's answer, with the reason that goes into events and exception messages.
 *
 * @param allowed whether the request may be sent again
 * @param reason why, in a few words
 */
public record ReplayDecision(boolean allowed, String reason) {

	/**
	 * Allows a second attempt.
	 * @param reason why it is safe
	 * @return the decision
	 */
	public static ReplayDecision allow(String reason) {
		return new ReplayDecision(true, reason);
	}

	/**
	 * Refuses a second attempt.
	 * @param reason why it is not safe
	 * @return the decision
	 */
	public static ReplayDecision refuse(String reason) {
		return new ReplayDecision(false, reason);
	}

}
