package dev.mcpx.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ProcessStatus;
import dev.mcpx.client.model.ProtocolEra;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a stdio upstream adds to metrics and health: restarts of its server process counted
 * as kind {@code process-restart}, and the process in the health details.
 */
class McpxStdioActuateTest {

	private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");

	@Test
	void aRestartedServerProcessCountsOnceAsARecoveredProcessRestart() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		McpxRecoveryMetrics metrics = new McpxRecoveryMetrics(registry);
		metrics.onEvent(new McpSessionRecoveredEvent("files", 1, 2, Duration.ofMillis(80), ReplayCause.PROCESS_EXITED,
				"the server process 42 was killed by SIGKILL (exit code 137)"));
		// The re-issue into the new process is part of that one restart.
		metrics.onEvent(new McpRequestReissuedEvent("files", "tools/call", "read", ReplayCause.PROCESS_EXITED,
				"never read"));
		metrics.onEvent(new McpRecoveryFailedEvent("files", "tools/call", 2, "could not start", ReplayCause.PROCESS_EXITED));
		assertThat(count(registry, "process-restart", "recovered")).isEqualTo(1);
		assertThat(count(registry, "process-restart", "failed")).isEqualTo(1);
		assertThat(registry.find(McpxRecoveryMetrics.NAME).counters()).hasSize(2);
	}

	@Test
	void healthDetailsShowTheProcessWithoutArgumentsAndAnExhaustedBudgetIsDown() {
		ProcessStatus process = new ProcessStatus("npx", 4242L, NOW.minusSeconds(90), 3, 137,
				"process 4241 was killed by SIGKILL (exit code 137)", null);
		Map<String, Object> details = McpClientStatusDetails.of(status(process, 0));
		assertThat(details).containsEntry("url", "stdio:npx")
			.containsEntry("command", "npx")
			.containsEntry("pid", 4242L)
			.containsEntry("restarts", 3L)
			.containsEntry("lastExitCode", 137)
			.containsKey("uptime");
		assertThat(McpUpstreamVerdict.of(status(process, 0), 3).code()).isEqualTo("UP");
		ProcessStatus down = new ProcessStatus("npx", null, null, 5, 1, "process 4250 exited with code 1",
				NOW.plusSeconds(60));
		McpUpstreamVerdict verdict = McpUpstreamVerdict.of(status(down, 1), 3);
		assertThat(verdict.code()).isEqualTo("DOWN");
		assertThat(verdict.reason()).contains("exited too often");
	}

	private static McpClientStatus status(ProcessStatus process, int failures) {
		return new McpClientStatus("files", "stdio:npx", ProtocolEra.LEGACY, "2025-11-25", null, 2, 1, 0, NOW, NOW,
				(failures > 0) ? NOW : null, (failures > 0) ? "McpRecoveryFailedException: not started again" : null,
				(failures > 0) ? McpRecoveryFailedException.class : null, failures, process);
	}

	private static double count(SimpleMeterRegistry registry, String kind, String outcome) {
		Counter counter = registry.find(McpxRecoveryMetrics.NAME).tag("kind", kind).tag("outcome", outcome).counter();
		return (counter != null) ? counter.count() : 0;
	}

}
