package dev.mcpx.client.internal.recovery;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.session.McpRequest;

/**
 * The follow-up step: given a failed attempt, the next attempt or none. Each kind of
 * failure has one rule; the first rule that knows the failure decides. Failures no rule
 * knows are the answer.
 */
final class FollowUps {

	/**
	 * The rules, in the order they are asked. Refusals that prove the request never ran
	 * come first; resuming a stream before re-issuing its request; losing a stream last.
	 */
	private static final List<RecoveryRule> RULES = List.of(new RefusedCredentialsRule(), new SessionExpiryRule(),
			new VersionRenegotiationRule(), new HeaderCorrectionRule(), new EraChangeRule(),
			new StreamResumptionRule(), new LostStreamRule());

	/**
	 * The rules that apply while the session is being opened, before any request is sent;
	 * a lost handshake only right after new credentials.
	 */
	private static final List<RecoveryRule> OPENING_RULES = List.of(new RefusedCredentialsRule(),
			new VersionRenegotiationRule(), new LostStreamRule());

	private final Recovery recovery;

	FollowUps(Recovery recovery) {
		this.recovery = recovery;
	}

	/**
	 * Whether a lost response of this tool call would lead to a second send.
	 * @param request the tool call
	 * @return {@code true} when broken-stream recovery is on and the gate allows it
	 */
	boolean resendsAfterLostResponse(McpRequest request) {
		return this.recovery.policy.brokenStream()
				&& this.recovery.askGate(request, ReplayCause.STREAM_LOST, true).allowed();
	}

	/**
	 * Decides what follows a failed attempt.
	 * @param failed the attempt, on the state it ran on (absent when opening failed)
	 * @param failure how it failed
	 * @return the decision: try again, or give up with the failure to throw
	 */
	FollowUp next(Attempt failed, McpException failure) {
		for (RecoveryRule rule : (failed.on() == null) ? OPENING_RULES : RULES) {
			@Nullable FollowUp decision = rule.decide(failed, failure, this.recovery);
			if (decision instanceof FollowUp.GiveUp giveUp) {
				return FollowUp.giveUp(LostStreamRule.notSentAfterAPossibleRun(failed, giveUp.failure()));
			}
			if (decision != null) {
				return decision;
			}
		}
		return FollowUp.giveUp(LostStreamRule.notSentAfterAPossibleRun(failed, failure));
	}

}
