package dev.mcpx.client.internal.recovery;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.recovery.ReplayDecision;

/**
 * The upstream refused the request's credentials (HTTP 401) before running it: when the
 * application's credentials can be refreshed, refresh them and send the request once more,
 * or open the session again when opening it was refused. Anything else surfaces as an
 * {@link McpAuthenticationException}.
 */
final class RefusedCredentialsRule implements RecoveryRule {

	@Override
	public @Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery) {
		if (!(failure instanceof McpAuthenticationException refusal)) {
			return null;
		}
		McpRequest request = failed.request();
		boolean opening = failed.on() == null;
		String method = (opening || request == null) ? McpMethods.INITIALIZE : request.method();
		if (failed.hasFired(Rule.REFUSED_CREDENTIALS)) {
			// a token a 401 made the client obtain may still lack this request's scope: one
			// step-up (2025-11-25 basic/authorization §Step-Up Authorization Flow)
			if (opening || request == null || failed.hasFired(Rule.STEP_UP) || refusal.challenge() == null
					|| !refusal.challenge().isInsufficientScope() || !recovery.refreshCredentials(method, refusal)) {
				return FollowUp.giveUp(authenticationFailure(recovery, method, refusal));
			}
			String reason = "re-authorized for scopes " + refusal.challenge().scopes() + " (step-up)";
			recovery.reissued(request, ReplayCause.CREDENTIALS_REFRESHED, reason);
			return FollowUp.retry(failed.resend(failed.on(), request, false, Rule.STEP_UP), Rule.STEP_UP, reason);
		}
		if (failed.recovered()) {
			return FollowUp.giveUp(refusal);
		}
		if (!recovery.refreshCredentials(method, refusal)) {
			return FollowUp.giveUp(authenticationFailure(recovery, method, refusal));
		}
		if (opening || request == null) { // no request is made before the session is open
			return FollowUp.retry(failed.reopen(Rule.REFUSED_CREDENTIALS), Rule.REFUSED_CREDENTIALS,
					"credentials refreshed");
		}
		ReplayDecision decision = recovery.askGate(request, ReplayCause.CREDENTIALS_REFRESHED, false);
		if (!decision.allowed()) {
			recovery.refused(request, ReplayCause.CREDENTIALS_REFRESHED, decision.reason());
			return FollowUp.giveUp(authenticationFailure(recovery, method, refusal));
		}
		recovery.reissued(request, ReplayCause.CREDENTIALS_REFRESHED, decision.reason());
		return FollowUp.retry(failed.resend(failed.on(), request, false, Rule.REFUSED_CREDENTIALS),
				Rule.REFUSED_CREDENTIALS, decision.reason());
	}

	private static McpAuthenticationException authenticationFailure(Recovery recovery, String method,
			McpAuthenticationException refusal) {
		return new McpAuthenticationException(recovery.upstream, method, refusal.status(), refusal.challenge(),
				refusal);
	}

}
