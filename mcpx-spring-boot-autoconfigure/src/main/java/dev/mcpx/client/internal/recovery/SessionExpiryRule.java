package dev.mcpx.client.internal.recovery;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.SessionGoneException;
import dev.mcpx.client.recovery.ReplayDecision;

/**
 * The upstream forgot the session a request was sent on, and did not run it (2025-11-25
 * basic/transports §Session Management, rules 3-4; a stdio process that exited before the
 * request was written): renew the session, once for every caller that saw its generation
 * die, and send the request again unless it names state of the old session or the gate
 * refuses. The re-send is free of the execution bound: the refusal proves nothing ran.
 */
final class SessionExpiryRule implements RecoveryRule {

	@Override
	public @Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery) {
		if (!(failure instanceof SessionGoneException gone) || failed.request() == null || failed.on() == null) {
			return null;
		}
		McpRequest request = failed.request();
		SessionState dead = failed.on();
		McpException evidence = gone.evidence();
		if (!recovery.policy.sessionExpiry()) {
			recovery.session.invalidate(dead);
			McpSessionExpiredException expired = recovery.expired(request, dead,
					"the session expired and session recovery is off; the next call opens a new session", evidence);
			return FollowUp.giveUp(Recovery.isLaterPage(request) ? new ListingRestart(expired) : expired);
		}
		if (failed.hasFired(Rule.SESSION_EXPIRY)) {
			return FollowUp.giveUp(recovery.expired(request, dead, request.method()
					+ " found its session expired again on its one retry (at most " + RecoveringExecutor.MAX_RECOVERIES
					+ ")", evidence));
		}
		if (failed.recoveredBesidesCredentials() && !failed.hasFired(Rule.LOST_STREAM)) {
			// Only the re-issue of a lost stream, or of refreshed credentials, may meet an
			// expiry and still be recovered: neither proves the session alive.
			return FollowUp.giveUp(evidence);
		}
		SessionState next = recovery.renew(dead, request, evidence, gone.status());
		String bound = Recovery.sessionBoundState(request);
		if (bound != null) {
			recovery.refused(request, ReplayCause.SESSION_EXPIRED, bound);
			if (Recovery.isLaterPage(request)) {
				return FollowUp.giveUp(new ListingRestart(recovery.expired(request, dead,
						request.method() + " was not replayed: " + bound, evidence)));
			}
			return FollowUp.giveUp(recovery.expired(request, dead, request.method() + " was not replayed: " + bound,
					evidence));
		}
		ReplayDecision decision = recovery.askGate(request, ReplayCause.SESSION_EXPIRED, false);
		if (!decision.allowed()) {
			recovery.refused(request, ReplayCause.SESSION_EXPIRED, decision.reason());
			return FollowUp.giveUp(recovery.expired(request, dead,
					request.method() + " was not replayed: " + decision.reason(), evidence));
		}
		recovery.reissued(request, ReplayCause.SESSION_EXPIRED, decision.reason());
		return FollowUp.retry(failed.resend(next, request, false, Rule.SESSION_EXPIRY), Rule.SESSION_EXPIRY,
				decision.reason());
	}

}
