package dev.mcpx.autoconfigure.discovery;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.discovery.event.HeartbeatEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import dev.mcpx.autoconfigure.McpUpstreamSettings;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpEndpoints;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.testsupport.EurekaRegistry;
import dev.mcpx.testsupport.JavaSdkServer;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One upstream over several instances of an MCP server, as a real service registry lists
 * them: a Eureka server started in the test, the MCP servers registered through its REST API,
 * and the application's view of it through Spring Cloud's Eureka client, whose registry
 * fetches ({@link HeartbeatEvent}) refresh the instances the client chooses from. Counted on
 * the servers (docs/architecture.md, "Replicated upstreams").
 */
class ReplicatedUpstreamEurekaTest {

	/** Generous: a loaded machine may take long to fetch the registry; a wait never decides a result. */
	private static final Duration WAIT = Duration.ofSeconds(60);

	private static EurekaRegistry registry;

	private static ConfigurableApplicationContext application;

	private static DiscoveryClient discoveryClient;

	private static McpClients clients;

	private static McpxDiscovery discovery;

	private static final List<DiscoveredService> followed = new java.util.concurrent.CopyOnWriteArrayList<>();

	@BeforeAll
	static void startRegistryAndApplication() {
		registry = EurekaRegistry.start();
		Map<String, Object> properties = new LinkedHashMap<>(registry.clientProperties());
		properties.put("spring.main.banner-mode", "off");
		properties.put("mcpx.discovery.enabled", true);
		properties.put("mcpx.discovery.service-ids", "named-empty");
		properties.put("mcpx.discovery.defaults.handshake-timeout", "7s");
		properties.put("mcpx.discovery.services.legacy-tools.request-timeout", "25s");
		properties.put("mcpx.discovery.services.broken.request-timeout", "-1s");
		properties.put("mcpx.clients.taken.url", "http://127.0.0.1:9/mcp");
		// Spring Cloud LoadBalancer chooses modern requests' instances: without its cache of the
		// instances (35 s by default), it sees what the registry fetch saw
		properties.put("spring.cloud.loadbalancer.cache.enabled", false);
		application = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.run(EurekaRegistry.arguments(properties));
		discoveryClient = application.getBean(DiscoveryClient.class);
		clients = application.getBean(McpClients.class);
		discovery = application.getBean(McpxDiscovery.class);
		application.addApplicationListener((ApplicationListener<HeartbeatEvent>) (event) -> followed
			.forEach((service) -> service.refresh(discoveryClient.getInstances(service.serviceId()))));
	}

	@AfterAll
	static void stop() {
		if (application != null) {
			application.close();
		}
		if (registry != null) {
			registry.close();
		}
	}

	/**
	 * 2025-11-25 basic/transports §Session Management, rules 3-4: a session lives on one
	 * instance; when that instance is killed under load (its process ended), the session counts
	 * as expired and the one re-initialize its 16 callers share goes to another live instance.
	 * The upstream is the one discovery made of the service (its instances declare
	 * {@code mcp.protocol: legacy}), reached through {@link McpClients}.
	 */
	@Test
	void whenTheInstanceOfALegacySessionIsKilledUnderLoadItsSixteenCallersCostOneInitializeOnAnother()
			throws Exception {
		List<NodePeer> peers = List.of(NodePeer.start(NodePeer.LEGACY), NodePeer.start(NodePeer.LEGACY),
				NodePeer.start(NodePeer.LEGACY));
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		try {
			for (int i = 0; i < peers.size(); i++) {
				registrations.add(registry.register("legacy-tools", "legacy-tools-" + i, URI.create(peers.get(i).url()),
						Map.of("mcp.path", URI.create(peers.get(i).url()).getPath(), "mcp.protocol", "legacy")));
			}
			awaitTrue(() -> discovery.service("legacy-tools") != null
					&& discovery.service("legacy-tools").live().size() == 3);
			McpClient client = clients.get("legacy-tools");
			assertThat(client.callTool("echo", Map.of("text", "first")).text()).isEqualTo("first");
			int pinned = onlyOne(peers, ReplicatedUpstreamEurekaTest::initializes);
			assertThat(initializes(peers.get(pinned))).isEqualTo(1);

			AtomicBoolean stop = new AtomicBoolean();
			AtomicInteger succeeded = new AtomicInteger();
			ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
			CountDownLatch running = new CountDownLatch(16 * 5);
			ExecutorService callers = Executors.newFixedThreadPool(16);
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < 16; t++) {
				int caller = t;
				done.add(callers.submit(() -> {
					for (int i = 0; (!stop.get() || i < 10) && i < 400; i++) {
						try {
							String text = caller + "-" + i;
							assertThat(client.callTool("echo", Map.of("text", text)).text()).isEqualTo(text);
							succeeded.incrementAndGet();
						}
						catch (Throwable ex) {
							failures.add(ex);
						}
						running.countDown();
					}
				}));
			}
			assertThat(running.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			int beforeKill = executions(peers.get(pinned));
			// killed: the process ends and sends no more heartbeats
			peers.get(pinned).close();
			registrations.get(pinned).stopHeartbeats();
			Thread.sleep(300);
			stop.set(true);
			callers.shutdown();
			assertThat(callers.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			for (Future<?> f : done) {
				f.get();
			}
			assertThat(failures).isEmpty();
			List<NodePeer> survivors = new ArrayList<>(peers);
			survivors.remove(pinned);
			// one initialize for the lost instance, on one survivor, which has the session now
			assertThat(initializes(survivors.get(0)) + initializes(survivors.get(1))).isEqualTo(1);
			int moved = onlyOne(survivors, ReplicatedUpstreamEurekaTest::initializes);
			NodePeer next = survivors.get(moved);
			assertThat(executions(survivors.get(1 - moved))).isZero();
			// every call that succeeded ran; a call whose response died with the instance may have run there too
			assertThat(beforeKill + executions(next)).isGreaterThanOrEqualTo(1 + succeeded.get() - 16);
			assertThat(executions(next)).isPositive();
		}
		finally {
			registrations.forEach(EurekaRegistry.Registration::deregister);
			peers.forEach(NodePeer::close);
		}
	}

	/**
	 * An instance that leaves the registry while it still answers (a graceful scale-down):
	 * its session moves with one initialize on another instance, and it receives nothing more.
	 */
	@Test
	void whenTheInstanceOfALegacySessionLeavesTheRegistryTheNextCallMovesTheSessionWithOneInitialize()
			throws Exception {
		List<JavaSdkServer> servers = List.of(JavaSdkServer.start(), JavaSdkServer.start());
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		try {
			for (int i = 0; i < servers.size(); i++) {
				registrations.add(registry.register("leaving", "leaving-" + i, URI.create(servers.get(i).url()),
						Map.of()));
			}
			DiscoveredService service = follow("leaving", 2);
			try (McpClient client = McpClient.builder("leaving", service).protocol(ProtocolMode.LEGACY).build()) {
				client.callTool("echo", Map.of("text", "a"));
				int pinned = onlyOne(servers, JavaSdkServer::initializeCount);
				registrations.get(pinned).deregister();
				awaitTrue(() -> service.live().size() == 1);
				int before = servers.get(pinned).executions("echo");
				for (int i = 0; i < 5; i++) {
					client.callTool("echo", Map.of("text", "b" + i));
				}
				JavaSdkServer other = servers.get(1 - pinned);
				assertThat(other.initializeCount()).isEqualTo(1);
				assertThat(other.executions("echo")).isEqualTo(5);
				assertThat(servers.get(pinned).executions("echo")).isEqualTo(before);
				assertThat(servers.get(pinned).initializeCount()).isEqualTo(1);
			}
		}
		finally {
			registrations.forEach(EurekaRegistry.Registration::deregister);
			servers.forEach(JavaSdkServer::close);
			followed.clear();
		}
	}

	/**
	 * 2026-07-28: no session, so requests spread over the live instances (round robin); an
	 * instance killed is passed over at once (the request it refused goes to the next one), and
	 * one that joins gets traffic after the registry's next refresh, nothing restarted.
	 */
	@Test
	void modernRequestsSpreadOverTheLiveInstancesAndFollowThemAsTheyLeaveAndJoin() throws Exception {
		List<NodePeer> peers = new ArrayList<>(List.of(NodePeer.start(NodePeer.MODERN), NodePeer.start(NodePeer.MODERN)));
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		try {
			for (int i = 0; i < peers.size(); i++) {
				registrations.add(registry.register("modern-tools", "modern-tools-" + i, URI.create(peers.get(i).url()),
						Map.of("mcp.path", URI.create(peers.get(0).url()).getPath(), "mcp.protocol", "modern")));
			}
			awaitTrue(() -> discovery.service("modern-tools") != null
					&& discovery.service("modern-tools").live().size() == 2);
			DiscoveredService service = discovery.service("modern-tools");
			assertThat(service.protocol()).isEqualTo(ProtocolMode.MODERN);
			McpClient client = clients.get("modern-tools");
			for (int i = 0; i < 20; i++) {
				client.callTool("echo", Map.of("text", "x" + i));
			}
			assertThat(calls(peers.get(0)) + calls(peers.get(1))).isEqualTo(20);
			assertThat(calls(peers.get(0))).isBetween(8, 12);

			NodePeer third = NodePeer.start(NodePeer.MODERN);
			peers.add(third);
			registrations.add(registry.register("modern-tools", "modern-tools-2", URI.create(third.url()),
					Map.of("mcp.path", URI.create(peers.get(0).url()).getPath(), "mcp.protocol", "modern")));
			awaitTrue(() -> service.live().size() == 3);
			for (int i = 0; i < 30; i++) {
				client.callTool("echo", Map.of("text", "y" + i));
			}
			assertThat(calls(third)).isBetween(8, 12);

			// killed, still listed: every call still succeeds, none runs twice
			peers.get(0).close();
			registrations.get(0).stopHeartbeats();
			int before = calls(peers.get(1)) + calls(third);
			for (int i = 0; i < 20; i++) {
				client.callTool("echo", Map.of("text", "z" + i));
			}
			assertThat(calls(peers.get(1)) + calls(third)).isEqualTo(before + 20);
		}
		finally {
			registrations.forEach(EurekaRegistry.Registration::deregister);
			peers.forEach(NodePeer::close);
			followed.clear();
		}
	}

	/**
	 * An instance registered with a host that does not resolve, and one whose mcp.path is not
	 * a path: the first is passed over when it refuses, the second is left out with a warning;
	 * the good instance serves every call. An upstream whose only instance is unusable fails its
	 * calls with a typed error, at once.
	 */
	@Test
	void aDiscoveredInstanceWithAnUnusableUrlCostsTheOthersNothingAndAloneFailsTyped() throws Exception {
		JavaSdkServer good = JavaSdkServer.start();
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		try {
			registrations.add(registry.register("mixed", "mixed-good", URI.create(good.url()), Map.of()));
			registrations.add(registry.register("mixed", "mixed-unresolvable", "no-such-host.invalid", 8080, Map.of()));
			registrations.add(registry.register("mixed", "mixed-bad-path", "127.0.0.1", 8080,
					Map.of("mcp.path", "not a path")));
			DiscoveredService mixed = follow("mixed", 2);
			McpEndpoints hopeless = McpEndpoints.of(List.of(URI.create("http://no-such-host.invalid:8080/mcp")));
			try (McpClient client = McpClient.builder("mixed", mixed).protocol(ProtocolMode.LEGACY).build();
					McpClient alone = McpClient.builder("hopeless", hopeless).protocol(ProtocolMode.LEGACY).build()) {
				for (int i = 0; i < 6; i++) {
					client.callTool("echo", Map.of("text", "m" + i));
				}
				assertThat(good.executions("echo")).isEqualTo(6);
				assertThat(good.initializeCount()).isEqualTo(1);
				assertThatThrownBy(() -> alone.callTool("echo", Map.of("text", "h")))
					.isInstanceOf(McpTransportException.class)
					.hasMessageContaining("hopeless");
				assertThat(client.callTool("echo", Map.of("text", "after")).text()).isEqualTo("after");
			}
		}
		finally {
			registrations.forEach(EurekaRegistry.Registration::deregister);
			good.close();
			followed.clear();
		}
	}

	/**
	 * A registry that flaps (an instance added and removed many times a second) while callers
	 * call: no call fails, and the legacy session, on the steady instance, is never renewed.
	 */
	@Test
	void aFlappingInstanceNeitherFailsACallNorMovesTheSessionOfTheSteadyOne() throws Exception {
		JavaSdkServer steady = JavaSdkServer.start();
		JavaSdkServer flapping = JavaSdkServer.start();
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		AtomicBoolean stop = new AtomicBoolean();
		try {
			registrations.add(registry.register("flappy", "flappy-steady", URI.create(steady.url()), Map.of()));
			DiscoveredService service = follow("flappy", 1);
			try (McpClient client = McpClient.builder("flappy", service).protocol(ProtocolMode.LEGACY).build()) {
				client.callTool("echo", Map.of("text", "start"));
				assertThat(steady.initializeCount()).isEqualTo(1);
				EurekaRegistry.Registration flap = registry.register("flappy", "flappy-flapping",
						URI.create(flapping.url()), Map.of());
				registrations.add(flap);
				Thread flapper = new Thread(() -> {
					while (!stop.get()) {
						flap.deregister();
						flap.reregister();
					}
				});
				flapper.start();
				AtomicInteger calls = new AtomicInteger();
				ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
				ExecutorService callers = Executors.newFixedThreadPool(8);
				long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
				for (int t = 0; t < 8; t++) {
					callers.submit(() -> {
						while (System.nanoTime() < until) {
							try {
								client.callTool("echo", Map.of("text", "f"));
								calls.incrementAndGet();
							}
							catch (Throwable ex) {
								failures.add(ex);
							}
						}
					});
				}
				callers.shutdown();
				assertThat(callers.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
				stop.set(true);
				flapper.join(WAIT.toMillis());
				assertThat(failures).isEmpty();
				assertThat(calls.get()).isPositive();
				assertThat(steady.initializeCount()).isEqualTo(1);
				assertThat(flapping.initializeCount()).isZero();
				assertThat(steady.executions("echo")).isEqualTo(1 + calls.get());
			}
		}
		finally {
			stop.set(true);
			registrations.forEach(EurekaRegistry.Registration::deregister);
			steady.close();
			flapping.close();
			followed.clear();
		}
	}

	/**
	 * Which services become upstreams, with which settings: a named service is one from the
	 * start and fails its calls typed while it has no instance; a service's own settings win
	 * over mcpx.discovery.defaults, which win over mcpx.defaults; a service whose settings are
	 * invalid is refused alone; a configured upstream of the same name wins; a service found
	 * by its metadata leaves McpClients with its last instance.
	 */
	@Test
	void discoveredServicesBecomeUpstreamsInMcpClientsWithTheirOwnSettings() throws Exception {
		JavaSdkServer server = JavaSdkServer.start();
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		try {
			assertThat(clients.find("named-empty")).isPresent();
			assertThatThrownBy(() -> clients.get("named-empty").listTools()).isInstanceOf(McpException.class)
				.hasStackTraceContaining("no live instance of named-empty");

			McpxUpstreams upstreams = application.getBean(McpxUpstreams.class);
			McpUpstreamSettings settings = upstreams.discovered("legacy-tools", null);
			assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(25));
			assertThat(settings.handshakeTimeout()).isEqualTo(Duration.ofSeconds(7));
			assertThat(settings.property("request-timeout"))
				.isEqualTo("mcpx.discovery.services.legacy-tools.request-timeout");
			assertThat(settings.property("handshake-timeout")).isEqualTo("mcpx.discovery.defaults.handshake-timeout");

			URI endpoint = URI.create(server.url());
			Map<String, String> mcp = Map.of("mcp.path", JavaSdkServer.PATH);
			registrations.add(registry.register("fine", "fine-1", endpoint, mcp));
			registrations.add(registry.register("broken", "broken-1", endpoint, mcp));
			registrations.add(registry.register("taken", "taken-1", endpoint, mcp));
			awaitTrue(() -> !discoveryClient.getInstances("fine").isEmpty()
					&& !discoveryClient.getInstances("broken").isEmpty()
					&& !discoveryClient.getInstances("taken").isEmpty());
			discovery.refresh();
			assertThat(clients.find("fine")).isPresent();
			assertThat(clients.find("broken")).isEmpty();
			assertThat(clients.isConfigured("taken")).isTrue();
			assertThat(clients.get("fine").callTool("echo", Map.of("text", "found")).text()).isEqualTo("found");
			assertThat(server.executions("echo")).isEqualTo(1);

			registrations.get(0).deregister();
			awaitTrue(() -> discoveryClient.getInstances("fine").isEmpty());
			discovery.refresh();
			assertThat(clients.find("fine")).isEmpty();
			assertThat(clients.find("named-empty")).isPresent();
		}
		finally {
			registrations.forEach(EurekaRegistry.Registration::deregister);
			server.close();
		}
	}

	/** Follows a service's instances at every registry fetch, and waits for the expected count. */
	private static DiscoveredService follow(String serviceId, int expected) {
		DiscoveredService service = new DiscoveredService(serviceId);
		followed.add(service);
		awaitTrue(() -> {
			service.refresh(discoveryClient.getInstances(serviceId));
			return service.live().size() == expected;
		});
		return service;
	}

	private static int initializes(NodePeer peer) {
		return peer.counts().path("initialize").asInt();
	}

	private static int executions(NodePeer peer) {
		return peer.counts().path("executions").path("echo").asInt();
	}

	private static int calls(NodePeer peer) {
		return peer.counts().path("requests").path("tools/call").asInt();
	}

	private static <T> int onlyOne(List<T> servers, java.util.function.ToIntFunction<T> count) {
		int found = -1;
		for (int i = 0; i < servers.size(); i++) {
			if (count.applyAsInt(servers.get(i)) > 0) {
				assertThat(found).as("only one instance has a session").isEqualTo(-1);
				found = i;
			}
		}
		assertThat(found).as("one instance has a session").isNotEqualTo(-1);
		return found;
	}

	private static void awaitTrue(BooleanSupplier condition) {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("not within " + WAIT);
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new AssertionError(ex);
			}
		}
	}

	/** The application under test: a Eureka client, nothing else of its own. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
