package dev.mcpx.client.recovery;

import java.util.Map;
import java.util.Objects;

/**
 * How one client recovers, fixed when it is built.
 *
 * @param sessionExpiry whether an expired legacy session is re-initialized and the request
 * retried
 * @param expiryOnBadRequest whether a 400 whose JSON-RPC error names the session counts as
 * expiry, as some widely deployed servers answer a forgotten session so
 * @param brokenStream whether a request whose response stream broke may be re-issued
 * @param resumptionAttempts how often a broken legacy event stream is resumed first
 * @param trustAnnotations whether the server's tool annotations may justify a re-issue
 * (2025-11-25 server/tools: annotations from untrusted servers must not drive decisions)
 * @param tools per-tool overrides of the replay decision
 */
public record RecoveryPolicy(boolean sessionExpiry, boolean expiryOnBadRequest, boolean brokenStream,
		int resumptionAttempts, boolean trustAnnotations, Map<String, ToolReplay> tools) {

	/** Resumption attempts by default: enough to ride out a server's polling, bounded. */
	public static final int DEFAULT_RESUMPTION_ATTEMPTS = 3;

	public RecoveryPolicy {
		if (resumptionAttempts < 0) {
			throw new IllegalArgumentException("Resumption attempts must not be negative, was " + resumptionAttempts);
		}
		tools = Map.copyOf(Objects.requireNonNull(tools, "tools"));
	}

	/**
	 * Everything on, annotations trusted, no per-tool override.
	 * @return the default policy
	 */
	public static RecoveryPolicy defaults() {
		return new RecoveryPolicy(true, true, true, DEFAULT_RESUMPTION_ATTEMPTS, true, Map.of());
	}

	/**
	 * The override for one tool.
	 * @param tool the tool name
	 * @return the override, {@link ToolReplay#ANNOTATIONS} when none is set
	 */
	public ToolReplay toolReplay(String tool) {
		return this.tools.getOrDefault(tool, ToolReplay.ANNOTATIONS);
	}

}
