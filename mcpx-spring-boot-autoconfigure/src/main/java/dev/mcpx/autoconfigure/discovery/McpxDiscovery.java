package dev.mcpx.autoconfigure.discovery;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.event.HeartbeatEvent;
import org.springframework.context.ApplicationListener;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.autoconfigure.McpUpstreamSettings;
import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;

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
 */
public final class McpxDiscovery implements ApplicationListener<HeartbeatEvent>, AutoCloseable {

	private static final Log logger = LogFactory.getLog(McpxDiscovery.class);

	private final DiscoveryClient discoveryClient;

	private final McpxProperties.Discovery properties;

	private final McpxUpstreams upstreams;

	private final BiFunction<McpUpstreamSettings, DiscoveredService, McpClient> clients;

	private final McpClients registry;

	private final Map<String, DiscoveredService> services = new ConcurrentHashMap<>();

	private final Set<String> refused = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Creates the discovery of MCP upstreams; nothing is read before {@link #refresh()}.
	 * @param discoveryClient the application's discovery client
	 * @param properties {@code mcpx.discovery}
	 * @param upstreams resolves a discovered upstream's settings
	 * @param clients builds the client of a discovered upstream over its service's instances
	 * @param registry where the upstreams are added and removed
	 */
	public McpxDiscovery(DiscoveryClient discoveryClient, McpxProperties.Discovery properties, McpxUpstreams upstreams,
			BiFunction<McpUpstreamSettings, DiscoveredService, McpClient> clients, McpClients registry) {
		this.discoveryClient = discoveryClient;
		this.properties = properties;
		this.upstreams = upstreams;
		this.clients = clients;
		this.registry = registry;
	}

	@Override
	public void onApplicationEvent(HeartbeatEvent event) {
		refresh();
	}

	/**
	 * Reads the registry: updates the live instances of every known service, adds the
	 * upstreams of services that became MCP services, and removes those found by metadata
	 * that have no instance left. A registry that cannot be read leaves everything as it was.
	 */
	public synchronized void refresh() {
		if (this.closed) {
			return;
		}
		Set<String> named = new LinkedHashSet<>(this.properties.getServiceIds());
		named.addAll(this.properties.getServices().keySet());
		Set<String> candidates = new LinkedHashSet<>(named);
		try {
			if (this.properties.isByMetadata()) {
				candidates.addAll(this.discoveryClient.getServices());
			}
			candidates.addAll(this.services.keySet());
			for (String serviceId : candidates) {
				refresh(serviceId, named.contains(serviceId), this.discoveryClient.getInstances(serviceId));
			}
		}
		catch (RuntimeException ex) {
			logger.warn("The service registry could not be read; the discovered MCP upstreams stay as they were: "
					+ ex);
		}
	}

	private void refresh(String serviceId, boolean named, List<ServiceInstance> instances) {
		DiscoveredService known = this.services.get(serviceId);
		if (!named && !declaresMcp(instances)) {
			if (known != null) {
				this.services.remove(serviceId);
				logger.info("[" + serviceId + "] no MCP instance is left in the registry; the upstream is removed");
				this.registry.remove(serviceId);
			}
			return;
		}
		if (known != null) {
			if (known.refresh(instances) && logger.isDebugEnabled()) {
				logger.debug("[" + serviceId + "] instances now " + known);
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
		DiscoveredService service = new DiscoveredService(serviceId);
		service.refresh(instances);
		McpClient client;
		try {
			client = this.clients.apply(this.upstreams.discovered(serviceId, service.protocol()), service);
		}
		catch (InvalidMcpxPropertyException | IllegalArgumentException ex) {
			if (this.refused.add(serviceId)) {
				logger.warn("[" + serviceId + "] the discovered service is not added: " + ex.getMessage());
			}
			return;
		}
		this.services.put(serviceId, service);
		this.refused.remove(serviceId);
		this.registry.add(client);
		logger.info("[" + serviceId + "] discovered: " + service);
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
		return this.services.get(serviceId);
	}

	/** Stops following the registry; the upstreams close with the registry of clients. */
	@Override
	public synchronized void close() {
		this.closed = true;
	}

}
