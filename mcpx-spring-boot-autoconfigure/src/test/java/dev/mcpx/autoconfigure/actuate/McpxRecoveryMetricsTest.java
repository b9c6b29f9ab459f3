package dev.mcpx.autoconfigure.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.McpStreamNotResumableEvent;
import dev.mcpx.client.event.McpStreamResumedEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ProtocolEra;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which events count as which recovery in {@code mcpx.client.recoveries}.
 */
class McpxRecoveryMetricsTest {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final McpxRecoveryMetrics metrics = new McpxRecoveryMetrics(this.registry);

	@Test
	void aReplacedSessionCountsOnceAsARecoveredSessionExpiry() {
		this.metrics.onEvent(new McpSessionExpiredEvent("a", "tools/list", 1, "abcd…", 404));
		this.metrics.onEvent(new McpSessionRecoveredEvent("a", 1, 2, Duration.ofMillis(12)));
		this.metrics.onEvent(new McpRequestReissuedEvent("a", "tools/list", null, ReplayCause.SESSION_EXPIRED,
				"not a tool call"));

		assertThat(count("a", "session-expiry", "recovered")).isEqualTo(1);
		assertThat(this.registry.find(McpxRecoveryMetrics.NAME).counters()).hasSize(1);
	}

	@Test
	void aSessionThatCouldNotBeReplacedCountsAsAFailedSessionExpiry() {
		this.metrics.onEvent(new McpRecoveryFailedEvent("a", "ping", 1, "could not reach the upstream"));

		assertThat(count("a", "session-expiry", "failed")).isEqualTo(1);
	}

	@Test
	void eachReissueCauseHasItsKind() {
		this.metrics.onEvent(reissued(ReplayCause.STREAM_LOST));
		this.metrics.onEvent(reissued(ReplayCause.VERSION_RENEGOTIATED));
		this.metrics.onEvent(reissued(ReplayCause.CREDENTIALS_REFRESHED));
		this.metrics.onEvent(reissued(ReplayCause.ERA_CHANGED));
		this.metrics.onEvent(reissued(ReplayCause.ERA_CHANGED));

		assertThat(count("a", "stream-lost", "recovered")).isEqualTo(1);
		assertThat(count("a", "version-retry", "recovered")).isEqualTo(1);
		assertThat(count("a", "credentials", "recovered")).isEqualTo(1);
		assertThat(count("a", "era-change", "recovered")).isEqualTo(2);
	}

	@Test
	void aRefusedReissueCountsAsRefusedUnderTheKindOfItsCause() {
		this.metrics.onEvent(new McpReissueRefusedEvent("b", "tools/call", "delete_item", ReplayCause.SESSION_EXPIRED,
				"tool not annotated idempotent"));
		this.metrics.onEvent(new McpReissueRefusedEvent("b", "tools/call", "delete_item", ReplayCause.STREAM_LOST,
				"tool not annotated idempotent"));

		assertThat(count("b", "session-expiry", "refused")).isEqualTo(1);
		assertThat(count("b", "stream-lost", "refused")).isEqualTo(1);
	}

	@Test
	void aStreamWhoseIdsCannotResumeItCountsAsItsOwnResumptionOutcome() {
		this.metrics.onEvent(new McpStreamResumedEvent("a", "tools/call", 1));
		this.metrics.onEvent(new McpStreamNotResumableEvent("a", "tools/call", "its event ids are the session id"));
		this.metrics.onEvent(new McpStreamNotResumableEvent("a", "tools/call", "its event ids repeat"));

		assertThat(count("a", "resumption", "recovered")).isEqualTo(1);
		assertThat(count("a", "resumption", "not-resumable")).isEqualTo(2);
	}

	@Test
	void otherEventsAreNotRecoveries() {
		this.metrics.onEvent(new McpEraDetectedEvent("a", ProtocolEra.MODERN, "2026-07-28", null));
		this.metrics.onEvent(new McpSessionExpiredEvent("a", "ping", 1, "abcd…", 404));

		assertThat(this.registry.find(McpxRecoveryMetrics.NAME).counters()).isEmpty();
	}

	private static McpRequestReissuedEvent reissued(ReplayCause cause) {
		return new McpRequestReissuedEvent("a", "tools/call", "echo", cause, "tool annotated read-only");
	}

	private double count(String upstream, String kind, String outcome) {
		Counter counter = this.registry.find(McpxRecoveryMetrics.NAME)
			.tags("upstream", upstream, "kind", kind, "outcome", outcome)
			.counter();
		assertThat(counter).as("counter %s/%s/%s", upstream, kind, outcome).isNotNull();
		return counter.count();
	}

}
