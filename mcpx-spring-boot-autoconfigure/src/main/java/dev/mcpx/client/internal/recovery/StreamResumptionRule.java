package dev.mcpx.client.internal.recovery;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.McpStreamNotResumableEvent;
import dev.mcpx.client.internal.session.StreamLost;
import dev.mcpx.client.internal.transport.Resumption;

/**
 * A legacy event stream broke before its response: read on from the last event received,
 * after the wait the server asked for (2025-11-25 basic/transports §Resumability and
 * Redelivery; §Sending Messages, rule 6: the client MUST respect {@code retry}), at most
 * {@code resumption-attempts} times per send. Resuming reads the same execution: it is not
 * a send, and the request's timeout covers it. A stream whose event ids cannot resume it (they
 * repeat, or are the session id) is not resumed; that is said in an event, and the lost-stream
 * rule decides at once.
 */
final class StreamResumptionRule implements RecoveryRule {

	@Override
	public @Nullable FollowUp decide(Attempt failed, McpException failure, Recovery recovery) {
		if (!(failure instanceof StreamLost lost) || failed.request() == null || failed.on() == null) {
			return null;
		}
		Resumption from = lost.resumption();
		if (lost.notResumable() != null && recovery.policy.brokenStream()) {
			// Ids that cannot resume: said once, then handled as a stream without ids.
			recovery.publish(new McpStreamNotResumableEvent(recovery.upstream, failed.request().method(),
					lost.notResumable()));
		}
		if (from == null || lost.sessionGone()) {
			return null; // nowhere to resume from: the lost-stream rule decides
		}
		if (!recovery.policy.brokenStream() || failed.resumptions() >= recovery.policy.resumptionAttempts()) {
			return null;
		}
		return FollowUp.retry(failed.resume(from), Rule.STREAM_RESUMPTION,
				"resuming " + failed.request().method() + "'s stream (attempt " + (failed.resumptions() + 1) + ")",
				from.delayMillis());
	}

}
