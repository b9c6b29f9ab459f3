package dev.mcpx.autoconfigure.discovery;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.cloud.client.ServiceInstance;

import dev.mcpx.client.McpEndpoints;
import dev.mcpx.client.ProtocolMode;

/**
 * The live instances of one discovered MCP service, as the registry listed them at its last
 * refresh: each instance's MCP endpoint is its URI with the path of its {@code mcp.path}
 * metadata (default {@value #DEFAULT_PATH}). An instance whose endpoint cannot be made is
 * left out, with one warning naming the instance and why, and one
 * {@link McpInstanceSkippedEvent}; the others are unaffected.
 */
public final class DiscoveredService implements McpEndpoints {

	private static final Log logger = LogFactory.getLog(DiscoveredService.class);

	/** The instance metadata naming an instance's MCP endpoint path. */
	public static final String PATH_METADATA = "mcp.path";

	/** The instance metadata naming the protocol era an instance speaks. */
	public static final String PROTOCOL_METADATA = "mcp.protocol";

	/** The MCP endpoint path of an instance without {@value #PATH_METADATA}. */
	public static final String DEFAULT_PATH = "/mcp";

	/** Bounds the memory of refused instances under a registry that keeps inventing new ones. */
	private static final int MAX_REMEMBERED_REFUSALS = 256;

	private final String serviceId;

	private final Map<String, Boolean> refused = new ConcurrentHashMap<>();

	private final Consumer<McpInstanceSkippedEvent> skipped;

	private volatile List<URI> live = List.of();

	private volatile @Nullable ProtocolMode protocol;

	private volatile @Nullable Function<String, @Nullable ServiceInstance> chooser;

	/**
	 * Creates the endpoints of one service, with no instance until the first refresh.
	 * @param serviceId the service id in the registry
	 */
	public DiscoveredService(String serviceId) {
		this(serviceId, (event) -> {
		});
	}

	/**
	 * Creates the endpoints of one service, with no instance until the first refresh.
	 * @param serviceId the service id in the registry
	 * @param skipped hears each instance left out, once per instance and problem
	 */
	public DiscoveredService(String serviceId, Consumer<McpInstanceSkippedEvent> skipped) {
		this.serviceId = serviceId;
		this.skipped = skipped;
	}

	/**
	 * The service id.
	 * @return the id
	 */
	public String serviceId() {
		return this.serviceId;
	}

	@Override
	public List<URI> live() {
		return this.live;
	}

	/**
	 * Lets a load balancer choose the instance of a request that may go to any (Spring Cloud
	 * LoadBalancer's {@code choose(serviceId)}); its choice counts only when it is one of the
	 * live instances the client would choose from, so a balancer whose view of the registry
	 * lags never sends a request to an instance that left.
	 * @param chooser chooses an instance of a service id, or returns {@code null}
	 */
	public void chooseWith(Function<String, @Nullable ServiceInstance> chooser) {
		this.chooser = chooser;
	}

	@Override
	public @Nullable URI choose(List<URI> candidates) {
		Function<String, @Nullable ServiceInstance> chooser = this.chooser;
		if (chooser == null) {
			return null;
		}
		ServiceInstance chosen = chooser.apply(this.serviceId);
		URI endpoint = (chosen != null) ? endpoint(chosen) : null;
		return (endpoint != null && candidates.contains(endpoint)) ? endpoint : null;
	}

	/**
	 * The era the instances declare in {@value #PROTOCOL_METADATA}, if any does.
	 * @return the first declared era, or {@code null} for none
	 */
	public @Nullable ProtocolMode protocol() {
		return this.protocol;
	}

	/**
	 * Takes the registry's current list of the service's instances. The snapshot handed out
	 * changes only when the endpoints do, so a client that compares it by identity sees a
	 * change only when there is one.
	 * @param instances the instances, as the discovery client lists them
	 * @return whether the live endpoints changed
	 */
	public boolean refresh(List<ServiceInstance> instances) {
		Set<URI> endpoints = new LinkedHashSet<>();
		ProtocolMode declared = null;
		for (ServiceInstance instance : instances) {
			URI endpoint = endpoint(instance);
			if (endpoint != null) {
				endpoints.add(endpoint);
				if (declared == null) {
					declared = protocolOf(instance);
				}
			}
		}
		if (!endpoints.isEmpty()) {
			// a service whose instances all left meanwhile keeps the era they declared
			this.protocol = declared;
		}
		List<URI> next = List.copyOf(endpoints);
		if (next.equals(this.live)) {
			return false;
		}
		this.live = next;
		return true;
	}

	private @Nullable URI endpoint(ServiceInstance instance) {
		String path = metadata(instance, PATH_METADATA);
		if (path == null || path.isBlank()) {
			path = DEFAULT_PATH;
		}
		String why;
		try {
			URI base = instance.getUri();
			String host = (base != null) ? base.getHost() : instance.getHost();
			if (host == null || host.isEmpty()) {
				why = "it has no host";
			}
			else if (instance.getPort() <= 0 && (base == null || base.getPort() <= 0)) {
				why = "it has no port";
			}
			else if (!path.startsWith("/")) {
				why = PATH_METADATA + " '" + path + "' is not an absolute path";
			}
			else {
				int port = (base != null && base.getPort() > 0) ? base.getPort() : instance.getPort();
				String scheme = instance.isSecure() ? "https" : "http";
				return new URI(scheme, null, host, port, path, null, null);
			}
		}
		catch (URISyntaxException | RuntimeException ex) {
			why = "its endpoint is not a URL (" + ex.getMessage() + ")";
		}
		String instanceId = String.valueOf(instance.getInstanceId());
		String key = instanceId + ": " + why;
		if (this.refused.size() < MAX_REMEMBERED_REFUSALS && this.refused.putIfAbsent(key, true) == null) {
			logger.warn("[" + this.serviceId + "] instance " + instanceId + " is left out: " + why);
			try {
				this.skipped.accept(new McpInstanceSkippedEvent(this.serviceId, instanceId, why));
			}
			catch (RuntimeException ex) {
				// a listener's failure must not stop the other instances from being read
				logger.warn("[" + this.serviceId + "] a listener of skipped instances failed", ex);
			}
		}
		return null;
	}

	private static @Nullable ProtocolMode protocolOf(ServiceInstance instance) {
		String value = metadata(instance, PROTOCOL_METADATA);
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			return ProtocolMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static @Nullable String metadata(ServiceInstance instance, String key) {
		Map<String, String> metadata = instance.getMetadata();
		return (metadata != null) ? metadata.get(key) : null;
	}

	@Override
	public String toString() {
		List<String> shown = new ArrayList<>();
		this.live.forEach((uri) -> shown.add(uri.getHost() + ":" + uri.getPort()));
		return "DiscoveredService[" + this.serviceId + ", live=" + shown + "]";
	}

}
