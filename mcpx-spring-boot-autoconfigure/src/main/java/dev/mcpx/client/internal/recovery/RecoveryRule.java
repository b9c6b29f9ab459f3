package dev.mcpx.client.internal.recovery;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;

/**
 * One recovery decision: for the kind of failure it knows, a ladder of guards, each
 * refusing with a one-line reason, then the next attempt.
 */
interface RecoveryRule {

	/**
	 * Decides about a failed attempt.
	 * @param failed the attempt, on the state it ran on ({@link Attempt#on()} is absent when
	 * opening the session failed)
	 * @param failure how it failed
	 * @param recovery what the rules may do and consult
	 * @return the decision, absent when this rule does not handle the failure
	 */
	@Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery);

}
