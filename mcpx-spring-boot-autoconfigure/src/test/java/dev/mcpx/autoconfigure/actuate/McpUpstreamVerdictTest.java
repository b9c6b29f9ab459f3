package dev.mcpx.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.ProtocolEra;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ladder that judges an upstream's health from its client's status.
 */
class McpUpstreamVerdictTest {

	private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

	private static final Instant T1 = T0.plusSeconds(10);

	@Test
	void beforeFirstContactTheUpstreamIsUnknown() {
		assertThat(McpUpstreamVerdict.of(status(null, null, null, 0), 3))
			.isEqualTo(new McpUpstreamVerdict("UNKNOWN", "no exchange with the upstream yet"));
	}

	@Test
	void whenTheLastExchangeSucceededTheUpstreamIsUp() {
		assertThat(McpUpstreamVerdict.of(status(T1, T0, "McpTransportException: [a] earlier", 0), 3).code())
			.isEqualTo("UP");
	}

	@Test
	void whenTheLastExchangeCouldNotReachTheUpstreamItIsDownAtOnce() {
		McpUpstreamVerdict verdict = McpUpstreamVerdict
			.of(status(T0, T1, "McpTransportException: [a] ping could not reach the upstream: refused", 1), 3);
		assertThat(verdict).isEqualTo(new McpUpstreamVerdict("DOWN", "the upstream could not be reached"));
	}

	@Test
	void whenARecoveryFailedTheUpstreamIsDownAtOnce() {
		McpUpstreamVerdict verdict = McpUpstreamVerdict
			.of(status(T0, T1, "McpRecoveryFailedException: [a] tools/list found session generation 1 expired", 1), 3);
		assertThat(verdict).isEqualTo(new McpUpstreamVerdict("DOWN", "recovering an expired session failed"));
	}

	@Test
	void anAnsweredFailureIsNotAnOutageUntilTheyRepeat() {
		String error = "McpHttpStatusException: [a] tools/call was answered HTTP 500";
		assertThat(McpUpstreamVerdict.of(status(T0, T1, error, 2), 3))
			.isEqualTo(new McpUpstreamVerdict("UP", "the upstream answers; its last request failed"));
		assertThat(McpUpstreamVerdict.of(status(T0, T1, error, 3), 3))
			.isEqualTo(new McpUpstreamVerdict("DOWN", "3 consecutive requests failed"));
		assertThat(McpUpstreamVerdict.of(status(null, T1, error, 1), 3).code()).isEqualTo("UNKNOWN");
	}

	@Test
	void aProbeWithoutAnAnswerInTimeMakesTheUpstreamDown() {
		McpxHealthSettings settings = new McpxHealthSettings(true, Duration.ZERO, Duration.ofMillis(1500), 3);
		assertThat(McpUpstreamVerdict.ofProbed(McpxHealthProbe.Outcome.TIMED_OUT, status(T1, T0, null, 0), settings))
			.isEqualTo(new McpUpstreamVerdict("DOWN", "no answer to a ping within 1500 ms"));
	}

	@Test
	void aProbeThatCouldNotReachTheUpstreamOnFirstContactMakesItDown() {
		// A failed first handshake may not show in the status: the ping's own failure counts.
		McpxHealthSettings settings = McpxHealthSettings.defaults().withProbe(true);
		McpxHealthProbe.Outcome refused = new McpxHealthProbe.Outcome(false,
				new McpTransportException("a", "initialize could not reach the upstream", null));
		assertThat(McpUpstreamVerdict.ofProbed(refused, status(null, null, null, 0), settings).code())
			.isEqualTo("DOWN");
		assertThat(McpUpstreamVerdict.ofProbed(McpxHealthProbe.Outcome.ANSWERED, status(T1, null, null, 0), settings)
			.code()).isEqualTo("UP");
	}

	@Test
	void aProbeWhoseEraDetectionReachedNothingSaysTheUpstreamCouldNotBeReached() {
		// protocol: auto, first contact: no answer to server/discover is a recovery failure caused by the refusal.
		McpxHealthSettings settings = McpxHealthSettings.defaults().withProbe(true);
		McpxHealthProbe.Outcome refused = new McpxHealthProbe.Outcome(false, new McpRecoveryFailedException("a",
				"server/discover, the probe of the upstream's protocol era, got no answer",
				new McpTransportException("a", "could not reach 127.0.0.1:1 (connection refused)", null)));
		assertThat(McpUpstreamVerdict.ofProbed(refused, status(null, null, null, 0), settings))
			.isEqualTo(new McpUpstreamVerdict("DOWN", "the upstream could not be reached"));
	}

	private static McpClientStatus status(Instant lastSuccess, Instant lastFailure, String lastError,
			int consecutiveFailures) {
		boolean contacted = lastSuccess != null || lastFailure != null;
		return new McpClientStatus("a", "http://127.0.0.1:1/mcp", contacted ? ProtocolEra.LEGACY : null,
				contacted ? "2025-11-25" : null, contacted ? new Implementation("s", "1", null) : null,
				contacted ? 1 : 0, 0, 0, null, lastSuccess, lastFailure, lastError, errorType(lastError),
				consecutiveFailures);
	}

	/** The type the message names, as {@code McpClient.status()} records both. */
	private static Class<? extends McpException> errorType(String lastError) {
		if (lastError == null) {
			return null;
		}
		if (lastError.startsWith("McpTransportException")) {
			return McpTransportException.class;
		}
		if (lastError.startsWith("McpRecoveryFailedException")) {
			return McpRecoveryFailedException.class;
		}
		return McpException.class;
	}

}
