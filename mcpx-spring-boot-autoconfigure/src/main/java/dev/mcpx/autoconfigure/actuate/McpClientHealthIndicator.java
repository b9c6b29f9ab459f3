package dev.mcpx.autoconfigure.actuate;

import java.time.Clock;
import java.time.Instant;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientStatus;

/**
 * The health of one upstream, judged by {@link McpUpstreamVerdict} from its client's
 * {@link McpClient#status() status}: how the application's own requests went. It never
 * contacts the upstream, unless it has a {@link McpxHealthProbe probe}: then an upstream
 * whose last exchange is older than the probe interval is pinged first, waiting at most
 * the probe's timeout. The details say why ({@code reason}), then show those of
 * {@link McpClientStatusDetails}.
 */
final class McpClientHealthIndicator extends AbstractHealthIndicator {

	private final McpClient client;

	private final McpxHealthSettings settings;

	private final @Nullable McpxHealthProbe probe;

	private final Clock clock;

	/**
	 * Creates the indicator of one client.
	 * @param client the client
	 * @param settings how health is judged
	 * @param probe pings stale upstreams, or {@code null} to never contact the upstream
	 * @param clock tells how old the last exchange is
	 */
	McpClientHealthIndicator(McpClient client, McpxHealthSettings settings, @Nullable McpxHealthProbe probe,
			Clock clock) {
		super("Health check of MCP upstream '" + client.name() + "' failed");
		this.client = client;
		this.settings = settings;
		this.probe = probe;
		this.clock = clock;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		McpClientStatus status = this.client.status();
		McpUpstreamVerdict verdict;
		// an upstream that acts for each user has no identity of its own to probe with
		if (this.probe != null && status.userSessions() == null && isStale(status)) {
			McpxHealthProbe.Outcome ping = this.probe.ping(this.client);
			status = this.client.status();
			verdict = McpUpstreamVerdict.ofProbed(ping, status, this.settings);
		}
		else {
			verdict = McpUpstreamVerdict.of(status, this.settings.downAfterFailures());
		}
		// The reason is a detail, not the status description, which Boot's aggregation would
		// carry up to the composite and the application's overall health.
		builder.status(verdict.code())
			.withDetail("reason", verdict.reason())
			.withDetails(McpClientStatusDetails.of(status));
	}

	private boolean isStale(McpClientStatus status) {
		Instant last = McpUpstreamVerdict.lastExchange(status);
		return last == null || !last.plus(this.settings.probeInterval()).isAfter(this.clock.instant());
	}

}
