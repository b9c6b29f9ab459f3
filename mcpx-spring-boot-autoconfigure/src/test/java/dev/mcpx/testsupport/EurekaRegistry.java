package dev.mcpx.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.cloud.netflix.eureka.server.EnableEurekaServer;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real service registry for discovery tests: a Eureka server
 * ({@code spring-cloud-starter-netflix-eureka-server}) started in the test's JVM on a free
 * port, with intervals short enough that a registration or a deregistration shows within a
 * second or two. Instances (the project's MCP test servers) are registered through Eureka's
 * REST API, as a sidecar would register them, and kept alive by heartbeats this fixture sends;
 * an instance whose heartbeats {@linkplain Registration#stopHeartbeats() stop} is evicted by
 * the server some 20 s later, as a killed process is.
 * <p>
 * The application under test reads the registry with Spring Cloud's Eureka client
 * ({@link #clientProperties()}: a registry fetch every second, full fetches).
 */
public final class EurekaRegistry implements AutoCloseable {

	/**
	 * How long an instance's lease lasts without a heartbeat (Eureka evicts after about twice
	 * that): long enough that heartbeats late on a loaded machine never evict a live instance
	 * (no test waits for an eviction: a killed instance is found by the client).
	 */
	private static final int LEASE_SECONDS = 10;

	private static final Duration HEARTBEAT = Duration.ofSeconds(2);

	private static final JsonMapper JSON = JsonMapper.shared();

	private final ConfigurableApplicationContext server;

	private final String url;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final Map<String, Registration> registrations = new ConcurrentHashMap<>();

	private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor((r) -> {
		Thread thread = new Thread(r, "eureka-test-heartbeats");
		thread.setDaemon(true);
		return thread;
	});

	private EurekaRegistry(ConfigurableApplicationContext server) {
		this.server = server;
		int port = ((WebServerApplicationContext) server).getWebServer().getPort();
		this.url = "http://127.0.0.1:" + port + "/eureka/";
		this.heartbeats.scheduleWithFixedDelay(this::beat, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(),
				TimeUnit.MILLISECONDS);
	}

	/**
	 * Starts a Eureka server on a free port of 127.0.0.1.
	 * @return the running registry
	 */
	public static EurekaRegistry start() {
		Map<String, Object> properties = new LinkedHashMap<>();
		int port = freePort();
		properties.put("server.port", port);
		// itself as its only peer: nothing is replicated anywhere
		properties.put("eureka.client.service-url.defaultZone", "http://127.0.0.1:" + port + "/eureka/");
		properties.put("spring.cloud.service-registry.auto-registration.enabled", false);
		properties.put("server.address", "127.0.0.1");
		properties.put("eureka.client.enabled", true);
		properties.put("eureka.client.register-with-eureka", false);
		properties.put("eureka.client.fetch-registry", false);
		properties.put("eureka.server.enable-self-preservation", false);
		properties.put("eureka.server.eviction-interval-timer-in-ms", 300);
		properties.put("eureka.server.use-read-only-response-cache", false);
		properties.put("eureka.server.response-cache-update-interval-ms", 200);
		properties.put("eureka.server.wait-time-in-ms-when-sync-empty", 0);
		properties.put("eureka.server.renewal-percent-threshold", 0);
		properties.put("eureka.instance.hostname", "127.0.0.1");
		properties.put("mcpx.discovery.enabled", false);
		properties.put("spring.ai.model.chat", "none");
		properties.put("logging.level.com.netflix", "warn");
		// as arguments: they win over the test application.properties (which turns Eureka off)
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Server.class)
			.web(WebApplicationType.SERVLET)
			.run(arguments(properties));
		return new EurekaRegistry(context);
	}

	private static int freePort() {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Properties as command line arguments, which win over every application.properties.
	 * @param properties the properties
	 * @return the arguments
	 */
	public static String[] arguments(Map<String, Object> properties) {
		return properties.entrySet().stream().map((e) -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
	}

	/**
	 * The registry's URL, for {@code eureka.client.service-url.defaultZone}.
	 * @return for example {@code http://127.0.0.1:40123/eureka/}
	 */
	public String url() {
		return this.url;
	}

	/**
	 * What an application needs to read this registry with Spring Cloud's Eureka client:
	 * a full registry fetch every second, no registration of its own.
	 * @return the properties
	 */
	public Map<String, Object> clientProperties() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("eureka.client.enabled", true);
		properties.put("eureka.client.service-url.defaultZone", this.url);
		properties.put("eureka.client.register-with-eureka", false);
		properties.put("eureka.client.fetch-registry", true);
		properties.put("eureka.client.registry-fetch-interval-seconds", 1);
		properties.put("eureka.client.initial-instance-info-replication-interval-seconds", 1);
		properties.put("eureka.client.disable-delta", true);
		// Spring's RestClient as the client's transport (Jersey is on the class path for the server)
		properties.put("eureka.client.jersey.enabled", false);
		properties.put("logging.level.com.netflix", "warn");
		properties.put("spring.cloud.service-registry.auto-registration.enabled", false);
		return properties;
	}

	/**
	 * Registers an MCP server instance and keeps it alive with heartbeats.
	 * @param service the service id (Eureka's application name and VIP address)
	 * @param instanceId the instance id, unique within the service
	 * @param endpoint the instance's MCP endpoint: its host and port are registered
	 * @param metadata the instance's metadata, for example {@code mcp.path}
	 * @return the registration
	 */
	public Registration register(String service, String instanceId, URI endpoint, Map<String, String> metadata) {
		Registration registration = new Registration(service, instanceId, endpoint.getHost(), endpoint.getPort(),
				metadata);
		registration.send();
		this.registrations.put(service + "/" + instanceId, registration);
		return registration;
	}

	/**
	 * Registers an instance by host and port as given (which may be unusable).
	 * @param service the service id
	 * @param instanceId the instance id
	 * @param host the host name registered
	 * @param port the port registered
	 * @param metadata the instance's metadata
	 * @return the registration
	 */
	public Registration register(String service, String instanceId, String host, int port,
			Map<String, String> metadata) {
		Registration registration = new Registration(service, instanceId, host, port, metadata);
		registration.send();
		this.registrations.put(service + "/" + instanceId, registration);
		return registration;
	}

	@Override
	public void close() {
		this.heartbeats.shutdownNow();
		this.server.close();
	}

	private void beat() {
		for (Registration registration : this.registrations.values()) {
			if (registration.beating) {
				try {
					registration.renew();
				}
				catch (RuntimeException ex) {
					// the next beat tries again; a test that stops the server ends them
				}
			}
		}
	}

	private int exchange(HttpRequest.Builder request) {
		try {
			return this.http.send(request.header("Accept", "application/json").timeout(Duration.ofSeconds(5)).build(),
					HttpResponse.BodyHandlers.discarding())
				.statusCode();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** One instance registered with the registry. */
	public final class Registration {

		private final String app;

		private final String instanceId;

		private final String host;

		private final int port;

		private final Map<String, String> metadata;

		private volatile boolean beating = true;

		private Registration(String service, String instanceId, String host, int port, Map<String, String> metadata) {
			this.app = service.toUpperCase(java.util.Locale.ROOT);
			this.instanceId = instanceId;
			this.host = host;
			this.port = port;
			this.metadata = Map.copyOf(metadata);
		}

		/** Stops the heartbeats, as when the instance's process is killed: the registry evicts it. */
		public void stopHeartbeats() {
			this.beating = false;
		}

		/** Takes the instance out of the registry at once, as a graceful shutdown does. */
		public void deregister() {
			this.beating = false;
			EurekaRegistry.this.registrations.remove(this.app.toLowerCase(java.util.Locale.ROOT) + "/" + this.instanceId);
			exchange(HttpRequest.newBuilder(URI.create(EurekaRegistry.this.url + "apps/" + this.app + "/" + this.instanceId))
				.DELETE());
		}

		/** Registers the instance again (after {@link #deregister()}) and resumes its heartbeats. */
		public void reregister() {
			send();
			this.beating = true;
			EurekaRegistry.this.registrations.put(this.app.toLowerCase(java.util.Locale.ROOT) + "/" + this.instanceId,
					this);
		}

		void send() {
			ObjectNode instance = JSON.createObjectNode();
			ObjectNode info = instance.putObject("instance");
			info.put("instanceId", this.instanceId);
			info.put("hostName", this.host);
			info.put("app", this.app);
			info.put("ipAddr", this.host);
			info.put("vipAddress", this.app.toLowerCase(java.util.Locale.ROOT));
			info.put("secureVipAddress", this.app.toLowerCase(java.util.Locale.ROOT));
			info.put("status", "UP");
			info.put("overriddenStatus", "UNKNOWN");
			ObjectNode port = info.putObject("port");
			port.put("$", this.port);
			port.put("@enabled", "true");
			ObjectNode securePort = info.putObject("securePort");
			securePort.put("$", 443);
			securePort.put("@enabled", "false");
			info.put("countryId", 1);
			ObjectNode dataCenter = info.putObject("dataCenterInfo");
			dataCenter.put("@class", "com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo");
			dataCenter.put("name", "MyOwn");
			ObjectNode lease = info.putObject("leaseInfo");
			lease.put("renewalIntervalInSecs", (int) HEARTBEAT.toSeconds());
			lease.put("durationInSecs", LEASE_SECONDS);
			ObjectNode metadata = info.putObject("metadata");
			this.metadata.forEach(metadata::put);
			int status = exchange(HttpRequest.newBuilder(URI.create(EurekaRegistry.this.url + "apps/" + this.app))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(instance))));
			if (status != 204 && status != 200) {
				throw new IllegalStateException("Eureka refused the registration of " + this.instanceId + ": HTTP "
						+ status);
			}
		}

		void renew() {
			int status = exchange(HttpRequest
				.newBuilder(URI.create(EurekaRegistry.this.url + "apps/" + this.app + "/" + this.instanceId
						+ "?status=UP"))
				.PUT(HttpRequest.BodyPublishers.noBody()));
			if (status == 404 && this.beating) {
				send(); // evicted meanwhile: register again, as a Eureka client does
			}
		}

	}

	/** The registry application: a Eureka server and nothing of its own. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableEurekaServer
	static class Server {

	}

}
