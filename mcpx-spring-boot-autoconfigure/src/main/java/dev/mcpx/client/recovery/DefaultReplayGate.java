package dev.mcpx.client.recovery;

import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ToolAnnotations;

/**
 * The replay gate (docs/architecture.md, "The replay gate"), as a ladder of guards, most specific first: read-shaped
 * requests are replayed; a tool's YAML override wins; a call the server provably did not
 * run (expired session, refused credentials) is replayed; otherwise only trusted
 * annotations that say a second run is harmless allow it.
 */
public final class DefaultReplayGate implements ReplayGate {

	private final RecoveryPolicy policy;

	/**
	 * Creates the gate of one client.
	 * @param policy the client's recovery policy
	 */
	public DefaultReplayGate(RecoveryPolicy policy) {
		this.policy = policy;
	}

	@Override
	public ReplayDecision decide(ReplayContext context) {
		String tool = context.tool();
		if (tool == null) { // not a tools/call
			return ReplayDecision.allow(context.method() + " is read-shaped");
		}
		ToolReplay override = this.policy.toolReplay(tool);
		if (override == ToolReplay.NEVER) {
			return ReplayDecision.refuse("tool '" + tool + "' is configured never to be re-sent");
		}
		if (override == ToolReplay.ALWAYS) {
			return ReplayDecision.allow("tool '" + tool + "' is configured always to be re-sent");
		}
		if (context.cause() == ReplayCause.SESSION_EXPIRED) {
			return ReplayDecision.allow("the server rejected the session before running the call");
		}
		if (context.cause() == ReplayCause.CREDENTIALS_REFRESHED) {
			return ReplayDecision.allow("the server refused the credentials before running the call");
		}
		if (!this.policy.trustAnnotations()) {
			return ReplayDecision.refuse("annotations of this upstream are not trusted");
		}
		if (context.annotations().isEmpty()) {
			return ReplayDecision.refuse("tool '" + tool + "' has no known annotations");
		}
		ToolAnnotations annotations = context.annotations().get();
		if (annotations.isReadOnly()) {
			return ReplayDecision.allow("tool '" + tool + "' is annotated readOnlyHint");
		}
		if (annotations.isIdempotent()) {
			return ReplayDecision.allow("tool '" + tool + "' is annotated idempotentHint");
		}
		return ReplayDecision.refuse("tool '" + tool + "' is not annotated read-only or idempotent");
	}

}
