package dev.mcpx.autoconfigure.actuate;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpTransportException;

/**
 * The judgement of one upstream's health from its client's status, with the reason for it;
 * the codes are Spring Boot's health status codes. Pure: it contacts nothing, so the
 * health indicator and the {@code mcpx} endpoint judge alike.
 * <ul>
 * <li>UNKNOWN before first contact;</li>
 * <li>UP when the last exchange succeeded;</li>
 * <li>DOWN when the last exchange could not reach the upstream, or could not recover an
 * expired session, or after {@code down-after-failures} consecutive failures, or when a
 * health probe's ping got no answer in time;</li>
 * <li>otherwise (the upstream answered, but the last request failed) UP if a request ever
 * succeeded, else UNKNOWN.</li>
 * </ul>
 *
 * @param code {@code UP}, {@code DOWN} or {@code UNKNOWN}
 * @param reason why, in a few words
 */
record McpUpstreamVerdict(String code, String reason) {

	static final String UP = "UP";

	static final String DOWN = "DOWN";

	static final String UNKNOWN = "UNKNOWN";

	/**
	 * Judges a status without contacting the upstream: a ladder of guards, each with its
	 * reason.
	 * @param status the client's status
	 * @param downAfterFailures consecutive failures after which the upstream is down
	 * @return the verdict
	 */
	static McpUpstreamVerdict of(McpClientStatus status, int downAfterFailures) {
		if (!status.contacted()) {
			return new McpUpstreamVerdict(UNKNOWN, "no exchange with the upstream yet");
		}
		if (status.process() != null && status.process().downUntil() != null) {
			return new McpUpstreamVerdict(DOWN, "the server process exited too often; it is started again after "
					+ status.process().downUntil());
		}
		if (status.consecutiveFailures() == 0) {
			return new McpUpstreamVerdict(UP, "the last exchange succeeded");
		}
		Class<? extends McpException> failure = status.lastErrorType();
		if (failure != null && McpTransportException.class.isAssignableFrom(failure)) {
			return unreachable();
		}
		if (failure != null && McpRecoveryFailedException.class.isAssignableFrom(failure)) {
			return recoveryFailed();
		}
		if (status.consecutiveFailures() >= downAfterFailures) {
			return new McpUpstreamVerdict(DOWN, status.consecutiveFailures() + " consecutive requests failed");
		}
		if (status.lastSuccessAt() != null) {
			return new McpUpstreamVerdict(UP, "the upstream answers; its last request failed");
		}
		return new McpUpstreamVerdict(UNKNOWN, "the upstream answered, but no request has succeeded yet");
	}

	/**
	 * Judges a status that a health probe's ping has just refreshed. A ping that failed
	 * on first contact may be missing from the status, so how it went is judged first.
	 * @param ping how the ping went
	 * @param status the status after the ping
	 * @param settings how health is judged
	 * @return the verdict
	 */
	static McpUpstreamVerdict ofProbed(McpxHealthProbe.Outcome ping, McpClientStatus status,
			McpxHealthSettings settings) {
		if (ping.timedOut()) {
			return new McpUpstreamVerdict(DOWN, "no answer to a ping within " + settings.timeout().toMillis() + " ms");
		}
		if (ping.failure() instanceof McpTransportException) {
			return unreachable();
		}
		if (ping.failure() instanceof McpRecoveryFailedException failed
				&& failed.getCause() instanceof McpTransportException) {
			// The era could not be detected (protocol: auto) because nothing answered.
			return unreachable();
		}
		if (ping.failure() instanceof McpRecoveryFailedException) {
			return recoveryFailed();
		}
		return of(status, settings.downAfterFailures());
	}

	/**
	 * When the upstream was last heard from, or not.
	 * @param status the client's status
	 * @return the later of the last success and the last failure, or {@code null}
	 */
	static @Nullable Instant lastExchange(McpClientStatus status) {
		Instant success = status.lastSuccessAt();
		Instant failure = status.lastFailureAt();
		if (success == null) {
			return failure;
		}
		return (failure == null || success.isAfter(failure)) ? success : failure;
	}

	private static McpUpstreamVerdict unreachable() {
		return new McpUpstreamVerdict(DOWN, "the upstream could not be reached");
	}

	private static McpUpstreamVerdict recoveryFailed() {
		return new McpUpstreamVerdict(DOWN, "recovering an expired session failed");
	}

}
