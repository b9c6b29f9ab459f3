package dev.mcpx.autoconfigure;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.core.env.Environment;

import dev.mcpx.autoconfigure.McpxProperties.Client;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Cause;

/**
 * Applies a change of {@code mcpx.clients.*}, {@code mcpx.defaults.*} or
 * {@code mcpx.discovery.*} to the live set
 * (docs/architecture.md, "Configuration refresh"): the properties are bound again from the
 * environment, and each upstream's settings resolved again; an upstream new to the
 * configuration is added, one gone from it removed, one whose settings changed replaced
 * (its old client drains), and one whose settings are unchanged is left alone, with its
 * session. An upstream whose new settings are refused keeps its client and its settings,
 * with a WARN and an {@link McpUpstreamRejectedEvent} naming the property; the others are
 * refreshed all the same. {@code mcpx.discovery} is bound again too and handed to
 * {@link McpxUpstreams}, whose refresh listeners (the discovery of upstreams) apply it.
 */
public final class McpxConfigurationRefresh {

	private static final Log logger = LogFactory.getLog(McpxConfigurationRefresh.class);

	private static final ConfigurationPropertyName CLIENTS = ConfigurationPropertyName.of("mcpx.clients");

	private static final ConfigurationPropertyName DEFAULTS = ConfigurationPropertyName.of("mcpx.defaults");

	private static final ConfigurationPropertyName DISCOVERY = ConfigurationPropertyName.of("mcpx.discovery");

	private final Environment environment;

	private final McpxUpstreams upstreams;

	private final McpClientConfigurer configurer;

	private final McpClients clients;

	private final ApplicationEventPublisher events;

	/**
	 * Each configured upstream's {@code oauth} section as its client was built with it: the
	 * resolved settings leave OAuth to its customizer, which binds the section when the client
	 * is built, so a change there is seen here.
	 */
	private final Map<String, Map<String, Object>> oauthBuiltWith = new HashMap<>();

	McpxConfigurationRefresh(Environment environment, McpxUpstreams upstreams, McpClientConfigurer configurer,
			McpClients clients, ApplicationEventPublisher events) {
		this.environment = environment;
		this.upstreams = upstreams;
		this.configurer = configurer;
		this.clients = clients;
		this.events = events;
		Binder binder = Binder.get(environment);
		for (String name : McpClientBeanRegistrar.upstreamNames(environment)) {
			this.oauthBuiltWith.put(name, oauthOf(binder, name));
		}
	}

	/**
	 * Whether any of the changed keys is a setting of an upstream, of every upstream, or of
	 * the discovery of upstreams.
	 * @param keys the keys that changed
	 * @return whether a refresh is due
	 */
	static boolean touchesUpstreams(Set<String> keys) {
		for (String key : keys) {
			ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
			for (ConfigurationPropertyName root : new ConfigurationPropertyName[] { CLIENTS, DEFAULTS, DISCOVERY }) {
				if (root.isAncestorOf(name) || root.equals(name)) {
					return true;
				}
			}
		}
		return false;
	}

	/**
	 * Binds the upstreams again and applies the difference to the live set, one refresh at a
	 * time.
	 */
	public synchronized void refresh() {
		Binder binder = Binder.get(this.environment);
		McpxProperties fresh = new McpxProperties();
		try {
			binder.bind(DEFAULTS, Bindable.ofInstance(fresh.getDefaults()));
		}
		catch (BindException ex) {
			// every upstream takes mcpx.defaults: none can be resolved, so none is changed
			rejected("*", ex.getName().toString(), problem(ex));
			return;
		}
		UpstreamSettingsMapper mapper = this.upstreams.mapperOf(fresh);
		Map<String, McpUpstreamSettings> applied = new LinkedHashMap<>();
		Set<String> declared = McpClientBeanRegistrar.upstreamNames(this.environment);
		for (String name : declared) {
			McpUpstreamSettings settings = resolve(binder, mapper, name, fresh);
			if (settings == null) {
				continue;
			}
			applied.put(name, settings);
			McpUpstreamSettings current = this.clients.isConfigured(name) ? this.upstreams.get(name) : null;
			Map<String, Object> oauth = oauthOf(binder, name);
			if (settings.equals(current) && oauth.equals(this.oauthBuiltWith.get(name))) {
				continue; // unchanged: its client, and its session, stay
			}
			McpClient client;
			try {
				client = this.configurer.builder(settings).build();
			}
			catch (InvalidMcpxPropertyException ex) {
				applied.remove(name);
				fresh.getClients().remove(name);
				rejected(name, ex.property(), ex.problem());
				continue;
			}
			this.clients.addConfigured(client);
			this.oauthBuiltWith.put(name, oauth);
			logger.info("MCP upstream '" + name + "' " + ((current != null) ? "replaced: its settings changed"
					: "added: it is new in the configuration"));
		}
		Set<String> left = new LinkedHashSet<>();
		for (String name : this.clients.names()) {
			if (this.clients.isConfigured(name) && !declared.contains(name)) {
				left.add(name);
			}
		}
		left.forEach((name) -> {
			this.clients.remove(name, Cause.REFRESH);
			this.oauthBuiltWith.remove(name);
			logger.info("MCP upstream '" + name + "' removed: it is no longer in the configuration");
		});
		this.upstreams.refreshed(fresh, discovery(binder), applied, left);
	}

	/**
	 * {@code mcpx.discovery} bound again; refused, the settings in force stay (a discovered
	 * upstream is resolved from them when the discovery applies them).
	 */
	private McpxProperties.Discovery discovery(Binder binder) {
		McpxProperties.Discovery discovery = new McpxProperties.Discovery();
		try {
			binder.bind(DISCOVERY, Bindable.ofInstance(discovery));
			return discovery;
		}
		catch (BindException ex) {
			String property = ex.getName().toString();
			logger.warn("The property '" + property + "' is invalid: " + problem(ex)
					+ "; the discovered MCP upstreams keep their settings (the other upstreams were refreshed)");
			this.events.publishEvent(new McpUpstreamRejectedEvent("*", property, problem(ex)));
			return this.upstreams.discovery();
		}
	}

	/**
	 * The upstream's {@code oauth} section as bound values, compared whole; one that cannot be
	 * bound is left to the OAuth customizer, which refuses it by its property when the client is
	 * built.
	 */
	private static Map<String, Object> oauthOf(Binder binder, String name) {
		try {
			return binder.bind(CLIENTS.append("[" + name + "]").append("oauth"), Bindable.mapOf(String.class, Object.class))
				.orElseGet(Map::of);
		}
		catch (BindException ex) {
			return Map.of("(unbindable)", ex.getName().toString());
		}
	}

	/** The upstream's new settings, or none when they are refused (it keeps its old ones). */
	private @Nullable McpUpstreamSettings resolve(Binder binder, UpstreamSettingsMapper mapper, String name,
			McpxProperties fresh) {
		try {
			Client client = binder.bind(CLIENTS.append("[" + name + "]"), Bindable.of(Client.class))
				.orElseGet(Client::new);
			McpUpstreamSettings settings = mapper.map(name, client);
			fresh.getClients().put(name, client);
			return settings;
		}
		catch (BindException ex) {
			rejected(name, ex.getName().toString(), problem(ex));
		}
		catch (InvalidMcpxPropertyException ex) {
			rejected(name, ex.property(), ex.problem());
		}
		return null;
	}

	private void rejected(String upstream, String property, String problem) {
		logger.warn("The property '" + property + "' is invalid: " + problem + "; MCP upstream '" + upstream
				+ "' keeps its settings (" + ("*".equals(upstream) ? "every upstream is left as it was"
						: "the other upstreams were refreshed")
				+ ")");
		this.events.publishEvent(new McpUpstreamRejectedEvent(upstream, property, problem));
	}

	private static String problem(BindException ex) {
		Throwable cause = ex.getCause();
		return Objects.requireNonNullElse((cause != null) ? cause.getMessage() : ex.getMessage(), "it is not valid");
	}

}
