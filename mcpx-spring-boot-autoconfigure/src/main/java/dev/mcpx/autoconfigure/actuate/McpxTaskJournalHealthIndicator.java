package dev.mcpx.autoconfigure.actuate;

import java.time.Instant;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.mcpx.autoconfigure.tasks.McpTaskJournalMonitor;

/**
 * The health of the task journal ({@code /actuator/health/mcpxTaskJournal}), as its writers found it: DOWN when the
 * last thing known of it is a failure, since tasks started then would not outlive the application and their
 * outcomes are not published (their calls still return); UP otherwise. It never touches the journal itself. The
 * details show how many reads and writes failed, when, and the last failure, which names an operation and a task,
 * never a value of a row.
 */
final class McpxTaskJournalHealthIndicator extends AbstractHealthIndicator {

	private final McpTaskJournalMonitor monitor;

	McpxTaskJournalHealthIndicator(McpTaskJournalMonitor monitor) {
		super("Health check of the mcpx task journal failed");
		this.monitor = monitor;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		McpTaskJournalMonitor.State state = this.monitor.state();
		if (state.writable()) {
			builder.up()
				.withDetail("reason", (state.lastWrite() != null) ? "the journal was last written successfully"
						: "nothing written to the journal yet");
		}
		else {
			builder.down()
				.withDetail("reason", "the task journal cannot be written: tasks started now run and return, but "
						+ "would not outlive this application and their outcomes are not published");
		}
		builder.withDetail("failures", state.failures());
		put(builder, "lastWrite", state.lastWrite());
		put(builder, "lastFailureAt", state.lastFailureAt());
		if (state.lastFailure() != null) {
			builder.withDetail("lastFailure", state.lastFailure());
		}
	}

	private static void put(Health.Builder builder, String key, @Nullable Instant instant) {
		if (instant != null) {
			builder.withDetail(key, instant.toString());
		}
	}

}
