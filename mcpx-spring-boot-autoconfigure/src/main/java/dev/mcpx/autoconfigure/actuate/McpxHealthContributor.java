package dev.mcpx.autoconfigure.actuate;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;

/**
 * The health of every upstream, one indicator each, named after the upstream: registered
 * as {@code mcpx}, each shows at {@code /actuator/health/mcpx/<name>}. Closing it stops the
 * probe's threads, if it has a probe.
 */
public final class McpxHealthContributor implements CompositeHealthContributor, AutoCloseable {

	private final CompositeHealthContributor indicators;

	private final @Nullable McpxHealthProbe probe;

	/**
	 * Creates the health of the given clients.
	 * @param clients the clients, one indicator each
	 * @param settings how health is judged, and whether a check may ping
	 */
	public McpxHealthContributor(McpClients clients, McpxHealthSettings settings) {
		this(clients, settings, Clock.systemUTC());
	}

	McpxHealthContributor(McpClients clients, McpxHealthSettings settings, Clock clock) {
		this.probe = settings.probe() ? new McpxHealthProbe(settings.timeout(), clients.names().size()) : null;
		Map<String, HealthIndicator> byName = new LinkedHashMap<>();
		for (McpClient client : clients) {
			byName.put(client.name(), new McpClientHealthIndicator(client, settings, this.probe, clock));
		}
		this.indicators = CompositeHealthContributor.fromMap(byName);
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		return this.indicators.getContributor(name);
	}

	@Override
	public Stream<Entry> stream() {
		return this.indicators.stream();
	}

	@Override
	public void close() {
		if (this.probe != null) {
			this.probe.close();
		}
	}

}
