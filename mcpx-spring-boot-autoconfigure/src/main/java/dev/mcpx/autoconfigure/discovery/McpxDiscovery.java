package dev.mcpx.autoconfigure.discovery;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.event.HeartbeatEvent;
import org.springframework.context.ApplicationListener;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.autoconfigure.McpUpstreamRejectedEvent;
import dev.mcpx.autoconfigure.McpUpstreamSettings;
import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Cause;

/**
 * Keeps one upstream per MCP service of the registry in {@link McpClients}: a service
 * becomes an upstream when it is named ({@code mcpx.discovery.service-ids},
 * {@code mcpx.discovery.services.<id>}) or, with {@code mcpx.discovery.by-metadata}, when one
 * of its instances declares {@code mcp.path} or {@code mcp.protocol}. It reads the registry
 * at startup and again at every {@link HeartbeatEvent}, which Spring Cloud's discovery
 * clients publish when their view of the registry is refreshed (Eureka's registry fetch,
 * Consul's and Kubernetes' watches): instances that join or leave reach the upstream's
 * client there, without a restart and without touching its session unless its instance left
 * (docs/architecture.md, "Replicated upstreams"). A service found by its metadata whose last
 * instance left is removed (drained); a named service stays, and its calls fail with a typed
 * error while it has no live instance.
 * <p>
 * Which services are upstreams, and their settings, are {@link McpxUpstreams#discovery()}'s:
 * a refresh of the configuration that touches {@code mcpx.discovery.*} binds them again and
 * then calls {@link #configurationRefreshed()}, which adds the services named now, removes
 * those no longer named, and replaces a discovered upstream whose settings changed. An
 * instance whose endpoint cannot be made is left out with a WARN and an
 * {@link McpInstanceSkippedEvent}; a service whose settings are invalid is refused alone, with
 * a WARN and an {@link McpUpstreamRejectedEvent}. Every upstream added, replaced or removed here
 * is an {@code McpUpstreamChangedEvent} of cause {@code DISCOVERY} (the registry) or
 * {@code REFRESH} (the configuration).
 */
public final class McpxDiscovery implements ApplicationListener<HeartbeatEvent>, AutoCloseable {

	private static final Log logger = LogFactory.getLog(McpxDiscovery.class);

	private final DiscoveryClient discoveryClient;

	private final McpxUpstreams upstreams;

	private final BiFunction<McpUpstreamSettings, DiscoveredService, McpClient> clients;

	private final McpClients registry;

	private final Consumer<Object> events;

	/**
	 * Per service id, what its client is built from beyond its resolved settings: the
	 * {@code oauth} section, which the OAuth customizer binds when the client is built.
	 */
	private final Function<String, Object> builtWith;

	private final Map<String, Known> services = new ConcurrentHashMap<>();

	private final Set<String> refused = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Creates the discovery of MCP upstreams; nothing is read before {@link #refresh()}.
	 * @param discoveryClient the application's discovery client
	 * @param upstreams the settings in force: which services are MCP upstreams
	 * ({@link McpxUpstreams#discovery()}), and each one's resolved settings
	 * @param clients builds the client of a discovered upstream over its service's instances
	 * @param registry where the upstreams are added and removed
	 * @param events where an {@link McpInstanceSkippedEvent} and an {@link McpUpstreamRejectedEvent}
	 * are published (the application's event publisher)
	 */
	public McpxDiscovery(DiscoveryClient discoveryClient, McpxUpstreams upstreams,
			BiFunction<McpUpstreamSettings, DiscoveredService, McpClient> clients, McpClients registry,
			Consumer<Object> events) {
		this(discoveryClient, upstreams, clients, registry, events, (serviceId) -> Map.of());
	}

	/**
	 * Creates the discovery of MCP upstreams, for clients built from more than their resolved
	 * settings; nothing is read before {@link #refresh()}.
	 * @param discoveryClient the application's discovery client
	 * @param upstreams the settings in force
	 * @param clients builds the client of a discovered upstream over its service's instances
	 * @param registry where the upstreams are added and removed
	 * @param events where skipped instances and refused services are published
	 * @param builtWith per service id, what else its client is built from (compared with
	 * {@code equals}): when it changes on a refresh of the configuration, the upstream is
	 * replaced as when its settings change
	 */
	public McpxDiscovery(DiscoveryClient discoveryClient, McpxUpstreams upstreams,
			BiFunction<McpUpstreamSettings, DiscoveredService, McpClient> clients, McpClients registry,
			Consumer<Object> events, Function<String, Object> builtWith) {
		this.discoveryClient = discoveryClient;
		this.upstreams = upstreams;
		this.clients = clients;
		this.registry = registry;
		this.events = events;
		this.builtWith = builtWith;
	}

	@Override
	public void onApplicationEvent(HeartbeatEvent event) {
		refresh();
	}

	/**
	 * Reads the registry: updates the live instances of every known service, adds the
	 * upstreams of services that became MCP services, and removes those that are no longer
	 * (found by metadata with no instance left, or no longer named). A registry that cannot
	 * be read leaves everything as it was.
	 */
	public void refresh() {
		refresh(Cause.DISCOVERY);
	}

	/**
	 * Applies the discovery settings as a refresh of the configuration left them: services
	 * named now become upstreams, services no longer named (nor found by metadata) leave, and
	 * a discovered upstream whose settings changed is replaced (its old client drains); one
	 * whose settings are unchanged keeps its client and its session.
	 */
	public void configurationRefreshed() {
		refresh(Cause.REFRESH);
	}

	private synchronized void refresh(Cause cause) {
		if (this.closed) {
			return;
		}
		if (cause == Cause.REFRESH) {
			this.refused.clear(); // what is still refused under the new settings is said again
		}
		McpxProperties.Discovery properties = this.upstreams.discovery();
		Set<String> named = new LinkedHashSet<>();
		boolean byMetadata = properties.isEnabled() && properties.isByMetadata();
		if (properties.isEnabled()) {
			named.addAll(properties.getServiceIds());
			named.addAll(properties.getServices().keySet());
		}
		Set<String> candidates = new LinkedHashSet<>(named);
		try {
			if (byMetadata) {
				candidates.addAll(this.discoveryClient.getServices());
			}
			candidates.addAll(this.services.keySet());
			for (String serviceId : candidates) {
				List<ServiceInstance> instances = this.discoveryClient.getInstances(serviceId);
				boolean wanted = named.contains(serviceId) || (byMetadata && declaresMcp(instances));
				refresh(serviceId, wanted, instances, cause);
			}
		}
		catch (RuntimeException ex) {
			logger.warn("The service registry could not be read; the discovered MCP upstreams stay as they were: "
					+ ex);
		}
	}

	private void refresh(String serviceId, boolean wanted, List<ServiceInstance> instances, Cause cause) {
		Known known = this.services.get(serviceId);
		if (known != null && this.registry.find(serviceId).orElse(null) != known.client()) {
			// an upstream of that name was configured meanwhile (a refresh), which wins
			this.services.remove(serviceId);
			known = null;
		}
		if (!wanted) {
			if (known != null) {
				this.services.remove(serviceId);
				logger.info("[" + serviceId + "] " + ((cause == Cause.REFRESH) ? "no longer an MCP service in "
						+ "mcpx.discovery" : "no MCP instance is left in the registry") + "; the upstream is removed");
				this.registry.remove(serviceId, cause);
			}
			this.refused.remove(serviceId);
			return;
		}
		if (known != null) {
			if (known.service().refresh(instances) && logger.isDebugEnabled()) {
				logger.debug("[" + serviceId + "] instances now " + known.service());
			}
			if (cause == Cause.REFRESH) {
				replaceIfChanged(known);
			}
			return;
		}
		if (this.registry.isConfigured(serviceId)) {
			if (this.refused.add(serviceId)) {
				logger.warn("[" + serviceId + "] the discovered service is not added: an upstream of that name is "
						+ "configured under mcpx.clients, and it wins");
			}
			return;
		}
		DiscoveredService service = new DiscoveredService(serviceId, this.events::accept);
		service.refresh(instances);
		ProtocolMode declared = service.protocol();
		McpUpstreamSettings settings = resolve(serviceId, declared);
		if (settings == null) {
			return;
		}
		Object builtWith = this.builtWith.apply(serviceId);
		McpClient client = build(settings, service);
		if (client == null) {
			this.upstreams.forget(serviceId); // refused: nothing of it is kept
			return;
		}
		this.refused.remove(serviceId);
		if (this.registry.add(client, cause) == client) {
			this.services.put(serviceId, new Known(service, declared, settings, builtWith, client));
			logger.info("[" + serviceId + "] discovered: " + service);
		}
	}

	/**
	 * Replaces the client of a discovered upstream whose settings changed in the configuration,
	 * or what else it is built from (its {@code oauth} section); resolved with the era its
	 * instances declared when it was built, so that only a change of the properties counts.
	 */
	private void replaceIfChanged(Known known) {
		String serviceId = known.service().serviceId();
		McpUpstreamSettings settings = resolve(serviceId, known.declared());
		Object builtWith = this.builtWith.apply(serviceId);
		if (settings == null || (settings.equals(known.settings()) && builtWith.equals(known.builtWith()))) {
			// refused (it keeps its client), or unchanged: its client, and its session, stay
			this.upstreams.keep(known.settings());
			return;
		}
		McpClient client = build(settings, known.service());
		if (client == null) {
			this.upstreams.keep(known.settings()); // refused: the client in force keeps its settings
			return;
		}
		if (this.registry.add(client, Cause.REFRESH) == client) {
			this.services.put(serviceId, new Known(known.service(), known.declared(), settings, builtWith, client));
			logger.info("[" + serviceId + "] replaced: its settings changed");
		}
		else {
			this.services.remove(serviceId);
		}
	}

	/** The service's settings, or none when a property is refused (WARN and an event, once). */
	private @Nullable McpUpstreamSettings resolve(String serviceId, @Nullable ProtocolMode declared) {
		try {
			return this.upstreams.discovered(serviceId, declared);
		}
		catch (InvalidMcpxPropertyException ex) {
			refuse(serviceId, ex.property(), ex.problem());
			return null;
		}
	}

	private @Nullable McpClient build(McpUpstreamSettings settings, DiscoveredService service) {
		String serviceId = service.serviceId();
		try {
			return this.clients.apply(settings, service);
		}
		catch (InvalidMcpxPropertyException ex) {
			refuse(serviceId, ex.property(), ex.problem());
		}
		catch (IllegalArgumentException ex) {
			refuse(serviceId, "mcpx.discovery.services." + serviceId,
					Objects.requireNonNullElse(ex.getMessage(), "it is not valid"));
		}
		return null;
	}

	private void refuse(String serviceId, String property, String problem) {
		if (this.refused.add(serviceId)) {
			logger.warn("[" + serviceId + "] the discovered service is not added: the property '" + property
					+ "' is invalid: " + problem);
			this.events.accept(new McpUpstreamRejectedEvent(serviceId, property, problem));
		}
	}

	/** Whether any instance declares itself an MCP server in its metadata. */
	private static boolean declaresMcp(List<ServiceInstance> instances) {
		for (ServiceInstance instance : instances) {
			Map<String, String> metadata = instance.getMetadata();
			if (metadata != null && (metadata.containsKey(DiscoveredService.PATH_METADATA)
					|| metadata.containsKey(DiscoveredService.PROTOCOL_METADATA))) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The live instances of a discovered service.
	 * @param serviceId the service id
	 * @return its instances, or {@code null} when it is not a discovered upstream
	 */
	public @Nullable DiscoveredService service(String serviceId) {
		Known known = this.services.get(serviceId);
		return (known != null) ? known.service() : null;
	}

	/** Stops following the registry; the upstreams close with the registry of clients. */
	@Override
	public synchronized void close() {
		this.closed = true;
	}

	/**
	 * A discovered upstream: its instances, the era they declared, the settings (and what else)
	 * its client was built with, and that client.
	 */
	private record Known(DiscoveredService service, @Nullable ProtocolMode declared, McpUpstreamSettings settings,
			Object builtWith, McpClient client) {
	}

}
