package dev.mcpx.client.internal.recovery;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpUnsupportedVersionException;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;

/**
 * The upstream refused the protocol version before running the request (-32022): the
 * client SHOULD select a mutually supported version from {@code data.supported} and retry
 * (2026-07-28 basic/versioning §Protocol Version Negotiation). Also when the refusal came
 * to the discovery that opens the session.
 */
final class VersionRenegotiationRule implements RecoveryRule {

	@Override
	public @Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery) {
		if (!(failure instanceof McpUnsupportedVersionException refused)) {
			return null;
		}
		if (failed.recovered()) {
			return FollowUp.giveUp(refused);
		}
		SessionState next = recovery.session.negotiate(failed.on(), refused.supported());
		McpRequest request = failed.request();
		if (failed.on() == null || request == null) {
			if (next == null) {
				return FollowUp.giveUp(refused);
			}
			return FollowUp.retry(failed.reopen(Rule.VERSION_RENEGOTIATION), Rule.VERSION_RENEGOTIATION,
					"the server supports " + next.protocolVersion());
		}
		if (next == null) {
			return FollowUp.giveUp(refused);
		}
		String reason = "the server supports " + next.protocolVersion();
		recovery.reissued(request, ReplayCause.VERSION_RENEGOTIATED, reason);
		return FollowUp.retry(failed.resend(next, request, false, Rule.VERSION_RENEGOTIATION),
				Rule.VERSION_RENEGOTIATION, reason);
	}

}
