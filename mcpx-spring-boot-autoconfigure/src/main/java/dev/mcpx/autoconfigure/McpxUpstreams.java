package dev.mcpx.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

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

	private final @Nullable SslBundles sslBundles;

	/** The properties and their mapper, replaced whole by a refresh of the configuration. */
	private volatile Source source;

	private final Map<String, McpUpstreamSettings> resolved = new ConcurrentHashMap<>();

	private final List<Runnable> refreshListeners = new CopyOnWriteArrayList<>();

	/**
	 * Creates the upstreams of the given properties.
	 * @param properties the bound properties
	 * @param sslBundles the application's SSL bundles, or {@code null} when it has none
	 */
	public McpxUpstreams(McpxProperties properties, @Nullable SslBundles sslBundles) {
		this.sslBundles = sslBundles;
		this.source = new Source(properties, new UpstreamSettingsMapper(properties.getDefaults(), sslBundles),
				properties.getDiscovery());
	}

	/**
	 * The discovery settings in force: as bound at startup, then as each refresh of the
	 * configuration binds them again (not the properties bean, which Spring Cloud rebinds in
	 * place, keeping map entries the configuration no longer has).
	 * @return {@code mcpx.discovery}
	 */
	public McpxProperties.Discovery discovery() {
		return this.source.discovery();
	}

	/**
	 * Runs an action after each refresh of the configuration took effect, once the new
	 * settings are this object's (the discovery of upstreams applies its own settings there).
	 * @param listener the action
	 */
	public void onRefresh(Runnable listener) {
		this.refreshListeners.add(listener);
	}

	/**
	 * The names of the upstreams declared under {@code mcpx.clients}.
	 * @return the names, in declaration order
	 */
	public Set<String> names() {
		return this.source.properties().getClients().keySet();
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
	 * {@code mcpx.defaults.*}, else the built-in default. Kept as that upstream's (what
	 * {@link #get} answers, until it is resolved again or forgotten), so that whatever reads an
	 * upstream's settings (the OAuth configuration, the Spring AI bridge) reads a discovered
	 * upstream's too.
	 * @param serviceId the service id, which is the upstream's name
	 * @param declared the era its instances declare ({@code mcp.protocol}), or {@code null}
	 * @return the settings
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public McpUpstreamSettings discovered(String serviceId, @Nullable ProtocolMode declared) {
		Source current = this.source;
		McpUpstreamSettings settings = current.mapper().mapDiscovered(serviceId, current.discovery(), declared);
		this.resolved.put(serviceId, settings);
		return settings;
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
		McpUpstreamSettings settings = this.source.mapper().map(name, client);
		this.resolved.put(name, settings);
		return settings;
	}

	/**
	 * Keeps settings resolved before as an upstream's again: a discovered upstream whose new
	 * settings were refused keeps the client, and so the settings, it had.
	 * @param settings the settings in force
	 */
	public void keep(McpUpstreamSettings settings) {
		this.resolved.put(settings.name(), settings);
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
			Source current = this.source;
			settings = current.mapper().map(name, current.properties().getClients().get(name));
			McpUpstreamSettings raced = this.resolved.putIfAbsent(name, settings);
			settings = (raced != null) ? raced : settings;
		}
		return settings;
	}

	/**
	 * The mapper of properties bound again (a refresh of the configuration), to resolve the
	 * new settings of each upstream before any is applied.
	 * @param properties the properties as bound now
	 * @return resolves an upstream under them
	 */
	UpstreamSettingsMapper mapperOf(McpxProperties properties) {
		return new UpstreamSettingsMapper(properties.getDefaults(), this.sslBundles);
	}

	/**
	 * Takes the refreshed properties as the source of every upstream's settings, with the
	 * settings a refresh applied (an upstream whose new settings were refused keeps its old
	 * ones; one that left is forgotten).
	 * Then the {@linkplain #onRefresh listeners} run.
	 * @param properties the properties as bound now
	 * @param discovery the discovery settings as bound now, or the ones in force when the new
	 * ones were refused
	 * @param applied the settings now in force, by upstream name
	 * @param left the upstreams that left the configuration
	 */
	void refreshed(McpxProperties properties, McpxProperties.Discovery discovery,
			Map<String, McpUpstreamSettings> applied, Set<String> left) {
		this.source = new Source(properties, mapperOf(properties), discovery);
		this.resolved.putAll(applied);
		left.forEach(this.resolved::remove);
		this.refreshListeners.forEach(Runnable::run);
	}

	/**
	 * What an upstream's settings are resolved from.
	 */
	private record Source(McpxProperties properties, UpstreamSettingsMapper mapper, McpxProperties.Discovery discovery) {
	}

}
