package dev.mcpx.client.internal.recovery;

import dev.mcpx.client.error.McpException;

/**
 * What a recovery rule decided about a failed attempt.
 */
public sealed interface FollowUp {

	/**
	 * Try again.
	 *
	 * @param next the next attempt
	 * @param rule the rule that decided it
	 * @param reason why, in a few words (for logs and events)
	 * @param delayMillis how long to wait first
	 */
	record Retry(Attempt next, Rule rule, String reason, long delayMillis) implements FollowUp {
	}

	/**
	 * Stop, and throw this.
	 *
	 * @param failure what the caller gets (the loop adds the recovered failures as
	 * suppressed)
	 */
	record GiveUp(McpException failure) implements FollowUp {
	}

	/**
	 * Tries again after a wait.
	 * @param next the next attempt
	 * @param rule the rule
	 * @param reason why
	 * @param delayMillis the wait
	 * @return the decision
	 */
	static FollowUp retry(Attempt next, Rule rule, String reason, long delayMillis) {
		return new Retry(next, rule, reason, delayMillis);
	}

	/**
	 * Tries again at once.
	 * @param next the next attempt
	 * @param rule the rule
	 * @param reason why
	 * @return the decision
	 */
	static FollowUp retry(Attempt next, Rule rule, String reason) {
		return new Retry(next, rule, reason, 0);
	}

	/**
	 * Stops.
	 * @param failure what the caller gets
	 * @return the decision
	 */
	static FollowUp giveUp(McpException failure) {
		return new GiveUp(failure);
	}

}
