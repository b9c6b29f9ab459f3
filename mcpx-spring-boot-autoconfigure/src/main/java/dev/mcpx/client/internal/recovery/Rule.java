package dev.mcpx.client.internal.recovery;

/**
 * The recovery rules, each a small class of this package that decides one kind of
 * failure (see {@code docs/architecture.md}, "Recovery rules").
 */
public enum Rule {

	/** Refused credentials (401) refreshed: {@link RefusedCredentialsRule}. */
	REFUSED_CREDENTIALS,

	/**
	 * A replay refused for lack of scope (403 {@code insufficient_scope}) re-authorized with
	 * more scopes: {@link RefusedCredentialsRule}, at most once per request (2025-11-25
	 * basic/authorization §Step-Up Authorization Flow, step 4).
	 */
	STEP_UP,

	/**
	 * An expired legacy session, or a stdio process that exited before the request was
	 * written, renewed: {@link SessionExpiryRule}.
	 */
	SESSION_EXPIRY,

	/** A refused protocol version renegotiated: {@link VersionRenegotiationRule}. */
	VERSION_RENEGOTIATION,

	/** Rejected tool headers corrected: {@link HeaderCorrectionRule}. */
	HEADER_CORRECTION,

	/** An upstream that changed era detected again: {@link EraChangeRule}. */
	ERA_CHANGE,

	/** A broken legacy event stream resumed: {@link StreamResumptionRule}. */
	STREAM_RESUMPTION,

	/**
	 * A lost response stream (or a stdio process that exited after the request was
	 * written) re-issued: {@link LostStreamRule}.
	 */
	LOST_STREAM

}
