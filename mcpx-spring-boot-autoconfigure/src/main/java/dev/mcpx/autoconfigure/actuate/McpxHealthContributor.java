package dev.mcpx.autoconfigure.actuate;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;

/**
 * The health of every live upstream, one indicator each, named after the upstream:
 * registered as {@code mcpx}, each shows at {@code /actuator/health/mcpx/<name>}. It reads
 * the live set of {@link McpClients} on every check, so an upstream added or removed while
 * the application runs shows, or goes, without a restart. Closing it stops the probe's
 * threads, if it has a probe.
 */
public final class McpxHealthContributor implements CompositeHealthContributor, AutoCloseable {

	private final McpClients clients;

	private final McpxHealthSettings settings;

	private final Clock clock;

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
		this.clients = clients;
		this.settings = settings;
		this.clock = clock;
		this.probe = settings.probe() ? new McpxHealthProbe(settings.timeout(), clients.names().size()) : null;
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		fitProbe();
		return this.clients.find(name).map(this::indicator).orElse(null);
	}

	@Override
	public Stream<Entry> stream() {
		fitProbe();
		List<Entry> entries = new ArrayList<>();
		// one snapshot of the live set; an indicator holds nothing but its client
		for (McpClient client : this.clients) {
			entries.add(new Entry(client.name(), indicator(client)));
		}
		return entries.stream();
	}

	/** The probe's threads follow the live set, which was sized at start. */
	private void fitProbe() {
		if (this.probe != null) {
			this.probe.fit(this.clients.names().size());
		}
	}

	private HealthIndicator indicator(McpClient client) {
		return new McpClientHealthIndicator(client, this.settings, this.probe, this.clock);
	}

	@Override
	public void close() {
		if (this.probe != null) {
			this.probe.close();
		}
	}

}
