package dev.mcpx.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundles;

import dev.mcpx.autoconfigure.McpxProperties.Client;
import dev.mcpx.client.ProtocolMode;

/**
 * Every upstream's {@link McpUpstreamSettings}, each resolved once from {@code mcpx.clients}
 * and {@code mcpx.defaults} when first asked for, and the one place that reads those
 * properties: the {@link McpClientConfigurer}, the Spring AI bridge and the OAuth
 * configuration read the settings from here. An upstream is checked when it is first
 * resolved, so that a bad value fails startup naming its property.
 */
public final class McpxUpstreams {

	private final McpxProperties properties;

	private final UpstreamSettingsMapper mapper;

	private final Map<String, McpUpstreamSettings> resolved = new ConcurrentHashMap<>();

	/**
	 * Creates the upstreams of the given properties.
	 * @param properties the bound properties
	 * @param sslBundles the application's SSL bundles, or {@code null} when it has none
	 */
	public McpxUpstreams(McpxProperties properties, @Nullable SslBundles sslBundles) {
		this.properties = properties;
		this.mapper = new UpstreamSettingsMapper(properties.getDefaults(), sslBundles);
	}

	/**
	 * The names of the upstreams declared under {@code mcpx.clients}.
	 * @return the names, in declaration order
	 */
	public Set<String> names() {
		return this.properties.getClients().keySet();
	}

	/**
	 * The settings of every declared upstream.
	 * @return the settings by upstream name, in declaration order
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public Map<String, McpUpstreamSettings> all() {
		Map<String, McpUpstreamSettings> all = new LinkedHashMap<>();
		names().forEach((name) -> all.put(name, get(name)));
		return all;
	}

	/**
	 * Resolves the settings of the upstream of a discovered service: for each setting,
	 * {@code mcpx.discovery.services.<id>.*}, else {@code mcpx.discovery.defaults.*}, else
	 * {@code mcpx.defaults.*}, else the built-in default. Not kept, since a service's
	 * instances may declare another era at the next refresh.
	 * @param serviceId the service id, which is the upstream's name
	 * @param declared the era its instances declare ({@code mcp.protocol}), or {@code null}
	 * @return the settings
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public McpUpstreamSettings discovered(String serviceId, @Nullable ProtocolMode declared) {
		return this.mapper.mapDiscovered(serviceId, this.properties.getDiscovery(), declared);
	}

	/**
	 * Resolves the settings of an upstream added while the application runs, given as they
	 * would be under {@code mcpx.clients.<name>}, and keeps them as that upstream's (what
	 * {@link #get} answers from now on).
	 * @param name the upstream name
	 * @param client its settings
	 * @return the resolved settings
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public McpUpstreamSettings resolve(String name, Client client) {
		McpUpstreamSettings settings = this.mapper.map(name, client);
		this.resolved.put(name, settings);
		return settings;
	}

	/**
	 * Forgets what was resolved for an upstream that left, so that nothing of it is kept.
	 * @param name the upstream name
	 */
	public void forget(String name) {
		this.resolved.remove(name);
	}

	/**
	 * The settings of one upstream.
	 * @param name the upstream name
	 * @return its settings; for a name not declared under {@code mcpx.clients} (a client
	 * the application built itself), what {@code mcpx.defaults} gives every upstream, with
	 * no {@link McpUpstreamSettings#transport() transport}
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public McpUpstreamSettings get(String name) {
		McpUpstreamSettings settings = this.resolved.get(name);
		if (settings == null) {
			// resolved outside computeIfAbsent: a failure is thrown, never cached
			settings = this.mapper.map(name, this.properties.getClients().get(name));
			McpUpstreamSettings raced = this.resolved.putIfAbsent(name, settings);
			settings = (raced != null) ? raced : settings;
		}
		return settings;
	}

}
