package dev.mcpx.client.internal.recovery;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.session.EraEvidence;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.model.ProtocolEra;

/**
 * A legacy request answered with a modern error, or a modern request rejected the way a
 * legacy server rejects it: the upstream was upgraded or downgraded in place (2026-07-28
 * basic/versioning §Backward Compatibility). Detect its era again, once for all callers,
 * and send the request in the era found.
 */
final class EraChangeRule implements RecoveryRule {

	@Override
	public @Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery) {
		SessionState state = failed.on();
		if (state == null || failed.request() == null || !showsOtherEra(failure, state)) {
			return null;
		}
		if (failed.recovered()) {
			return FollowUp.giveUp(failure);
		}
		SessionState next;
		try {
			next = recovery.session.redetect(state);
		}
		catch (McpException ex) {
			ex.addSuppressed(failure);
			return FollowUp.giveUp(ex);
		}
		if (next == null) {
			return FollowUp.giveUp(failure);
		}
		McpRequest request = failed.request();
		String reason = "the upstream now speaks the " + next.era() + " era";
		recovery.reissued(request, ReplayCause.ERA_CHANGED, reason);
		return FollowUp.retry(failed.resend(next, request, false, Rule.ERA_CHANGE), Rule.ERA_CHANGE, reason);
	}

	private static boolean showsOtherEra(McpException failure, SessionState state) {
		return (state.era() == ProtocolEra.LEGACY) ? EraEvidence.showsModernServer(failure)
				: EraEvidence.showsLegacyServer(failure);
	}

}
