package dev.mcpx.autoconfigure.discovery;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
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
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.core.env.MapPropertySource;

import dev.mcpx.autoconfigure.McpUpstreamRejectedEvent;
import dev.mcpx.autoconfigure.McpUpstreamSettings;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpClientClosedException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.McpUpstreamChangedEvent;
import dev.mcpx.testsupport.EurekaRegistry;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Discovery as the configuration and the registry change while the application runs, against
 * a real Eureka server started in the test (the MCP servers registered through its REST API,
 * read by Spring Cloud's Eureka client): {@code mcpx.discovery.*} bound again on a refresh of the
 * configuration (an {@link EnvironmentChangeEvent} after the environment changed, as Spring
 * Cloud's refresh publishes it), an instance whose endpoint cannot be made, and a flapping
 * instance. Counted on the servers (docs/architecture.md, "Replicated upstreams").
 */
class DiscoveryRefreshEurekaTest {

	/** Generous: a loaded machine may take long to fetch the registry; a wait never decides a result. */
	private static final Duration WAIT = Duration.ofSeconds(60);

	private static EurekaRegistry registry;

	private static ConfigurableApplicationContext application;

	private static McpClients clients;

	private static McpxDiscovery discovery;

	/** What the configuration changes to: the environment's first property source. */
	private static final Map<String, Object> overrides = new LinkedHashMap<>();

	private static final List<Object> events = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void startRegistryAndApplication() {
		registry = EurekaRegistry.start();
		Map<String, Object> properties = new LinkedHashMap<>(registry.clientProperties());
		properties.put("spring.main.banner-mode", "off");
		properties.put("mcpx.discovery.enabled", true);
		properties.put("mcpx.discovery.service-ids", "alpha,gamma");
		properties.put("spring.cloud.loadbalancer.cache.enabled", false);
		application = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.listeners((ApplicationListener<?>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload) {
					events.add(payload.getPayload());
				}
			})
			.run(EurekaRegistry.arguments(properties));
		application.getEnvironment().getPropertySources().addFirst(new MapPropertySource("test-overrides", overrides));
		clients = application.getBean(McpClients.class);
		discovery = application.getBean(McpxDiscovery.class);
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
	 * A refresh that names another service adds its upstream, one that no longer names a service
	 * removes it (drained, its session ended), and a service whose settings changed is replaced,
	 * while one that is unchanged keeps its client and its session; each change is an
	 * {@link McpUpstreamChangedEvent} of cause {@code REFRESH}.
	 */
	@Test
	void aRefreshOfTheDiscoverySettingsAddsRemovesAndReplacesDiscoveredUpstreams() throws Exception {
		JavaSdkServer alpha = JavaSdkServer.start();
		JavaSdkServer beta = JavaSdkServer.start();
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		try {
			registrations.add(registry.register("alpha", "alpha-1", URI.create(alpha.url()), Map.of()));
			registrations.add(registry.register("beta", "beta-1", URI.create(beta.url()), Map.of()));
			awaitTrue(() -> discovery.service("alpha") != null && discovery.service("alpha").live().size() == 1);
			McpClient alphaBefore = clients.get("alpha");
			alphaBefore.callTool("echo", Map.of("text", "a"));
			// beta is in the registry, but neither named nor declared by its metadata
			awaitTrue(() -> !application.getBean(org.springframework.cloud.client.discovery.DiscoveryClient.class)
				.getInstances("beta")
				.isEmpty());
			discovery.refresh();
			assertThat(clients.find("beta")).isEmpty();
			events.clear();

			refresh(Map.of("mcpx.discovery.service-ids", "alpha,beta,gamma",
					"mcpx.discovery.services.alpha.request-timeout", "9s"));

			assertThat(refreshChanges()).containsExactly("alpha:REPLACED:REFRESH", "beta:ADDED:REFRESH");
			assertThat(clients.get("alpha")).isNotSameAs(alphaBefore);
			assertThatThrownBy(() -> alphaBefore.callTool("echo", Map.of("text", "old")))
				.isInstanceOf(McpClientClosedException.class);
			awaitTrue(() -> alpha.deleteCount() == 1);
			clients.get("alpha").callTool("echo", Map.of("text", "a2"));
			assertThat(alpha.initializeCount()).isEqualTo(2);
			assertThat(alpha.executions("echo")).isEqualTo(2);
			McpClient betaClient = clients.get("beta");
			betaClient.callTool("echo", Map.of("text", "b"));
			assertThat(beta.executions("echo")).isEqualTo(1);
			events.clear();

			overrides.remove("mcpx.discovery.services.alpha.request-timeout");
			refresh(Map.of("mcpx.discovery.service-ids", "beta,gamma"));

			assertThat(refreshChanges()).containsExactly("alpha:REMOVED:REFRESH");
			assertThat(clients.find("alpha")).isEmpty();
			awaitTrue(() -> alpha.deleteCount() == 2);
			// unchanged: the same client, in the same session
			assertThat(clients.get("beta")).isSameAs(betaClient);
			betaClient.callTool("echo", Map.of("text", "b2"));
			assertThat(beta.initializeCount()).isEqualTo(1);
			assertThat(beta.executions("echo")).isEqualTo(2);
			// the registry's next refresh leaves it so
			discovery.refresh();
			assertThat(clients.find("alpha")).isEmpty();
			assertThat(clients.get("beta")).isSameAs(betaClient);
		}
		finally {
			registrations.forEach(EurekaRegistry.Registration::deregister);
			alpha.close();
			beta.close();
			overrides.clear();
			refresh(Map.of());
		}
	}

	/**
	 * An invalid discovery setting in a refresh refuses that service alone, with an
	 * {@link McpUpstreamRejectedEvent} naming the property; its upstream keeps its client.
	 */
	@Test
	void anInvalidDiscoverySettingInARefreshLeavesThatUpstreamAsItWas() throws Exception {
		JavaSdkServer server = JavaSdkServer.start();
		EurekaRegistry.Registration registration = registry.register("gamma", "gamma-1", URI.create(server.url()),
				Map.of());
		try {
			awaitTrue(() -> discovery.service("gamma") != null && discovery.service("gamma").live().size() == 1);
			McpClient before = clients.get("gamma");
			before.callTool("echo", Map.of("text", "g"));
			McpxUpstreams upstreams = application.getBean(McpxUpstreams.class);
			McpUpstreamSettings settingsBefore = upstreams.get("gamma");
			events.clear();

			refresh(Map.of("mcpx.discovery.services.gamma.request-timeout", "-1s"));

			assertThat(changes("gamma")).isEmpty();
			assertThat(events).filteredOn(McpUpstreamRejectedEvent.class::isInstance)
				.singleElement()
				.satisfies((event) -> {
					McpUpstreamRejectedEvent rejected = (McpUpstreamRejectedEvent) event;
					assertThat(rejected.upstream()).isEqualTo("gamma");
					assertThat(rejected.property()).isEqualTo("mcpx.discovery.services.gamma.request-timeout");
				});
			assertThat(clients.get("gamma")).isSameAs(before);
			assertThat(upstreams.get("gamma")).as("the settings in force stay its client's").isEqualTo(settingsBefore);
			before.callTool("echo", Map.of("text", "g2"));
			assertThat(server.initializeCount()).isEqualTo(1);
			assertThat(server.executions("echo")).isEqualTo(2);
		}
		finally {
			registration.deregister();
			server.close();
			overrides.clear();
			refresh(Map.of());
		}
	}

	/**
	 * An instance whose endpoint cannot be made ({@code mcp.path} not a path) is left out with a
	 * WARN and one {@link McpInstanceSkippedEvent}, however often the registry is read; the
	 * upstream is not failed: its other instance serves every call.
	 */
	@Test
	void anInstanceWithAnUnusableEndpointIsSkippedWithAnEventAndTheUpstreamServesThroughTheOthers()
			throws Exception {
		JavaSdkServer good = JavaSdkServer.start();
		List<EurekaRegistry.Registration> registrations = new ArrayList<>();
		try {
			// found by their metadata
			registrations.add(registry.register("epsilon", "epsilon-good", URI.create(good.url()),
					Map.of("mcp.path", JavaSdkServer.PATH)));
			registrations.add(registry.register("epsilon", "epsilon-bad-path", "127.0.0.1", 8080,
					Map.of("mcp.path", "not a path")));
			awaitTrue(() -> events.stream()
				.anyMatch((e) -> e instanceof McpInstanceSkippedEvent skipped
						&& skipped.instanceId().equals("epsilon-bad-path")));
			awaitTrue(() -> discovery.service("epsilon") != null && discovery.service("epsilon").live().size() == 1);
			for (int i = 0; i < 5; i++) {
				discovery.refresh();
			}
			for (int i = 0; i < 4; i++) {
				assertThat(clients.get("epsilon").callTool("echo", Map.of("text", "e" + i)).text()).isEqualTo("e" + i);
			}

			assertThat(events).filteredOn(McpInstanceSkippedEvent.class::isInstance)
				.map(McpInstanceSkippedEvent.class::cast)
				.filteredOn((skipped) -> skipped.instanceId().equals("epsilon-bad-path"))
				.singleElement()
				.satisfies((skipped) -> {
					assertThat(skipped.upstream()).isEqualTo("epsilon");
					assertThat(skipped.problem()).contains("mcp.path").contains("not an absolute path");
				});
			assertThat(discovery.service("epsilon").live()).containsExactly(URI.create(good.url()));
			assertThat(good.executions("echo")).isEqualTo(4);
			assertThat(good.initializeCount()).isEqualTo(1);
		}
		finally {
			registrations.forEach(EurekaRegistry.Registration::deregister);
			good.close();
		}
	}

	/**
	 * A service found by its metadata whose only instance flaps (deregistered and registered
	 * again as fast as the registry takes it) while the registry is read many times a second:
	 * its upstream may come and go with the registry's reads; once the instance stays, it converges to
	 * one live upstream whose calls cost one initialize at most, and each client the flapping made opened
	 * one session at most.
	 */
	@Test
	void aFlappingInstanceConvergesToOneUpstreamAndLeavesNoSessionBehind() throws Exception {
		JavaSdkServer server = JavaSdkServer.start();
		EurekaRegistry.Registration flap = registry.register("delta", "delta-1", URI.create(server.url()),
				Map.of("mcp.path", JavaSdkServer.PATH));
		AtomicBoolean stop = new AtomicBoolean();
		ConcurrentLinkedQueue<Throwable> untyped = new ConcurrentLinkedQueue<>();
		AtomicInteger answered = new AtomicInteger();
		try {
			awaitTrue(() -> clients.find("delta").isPresent());
			events.clear();
			int initializesBefore = server.initializeCount();
			Thread flapper = new Thread(() -> {
				while (!stop.get()) {
					flap.deregister();
					flap.reregister();
				}
			});
			Thread reader = new Thread(() -> {
				while (!stop.get()) {
					discovery.refresh();
					sleep(20);
				}
			});
			Thread caller = new Thread(() -> {
				while (!stop.get()) {
					clients.find("delta").ifPresent((client) -> {
						try {
							client.callTool("echo", Map.of("text", "d"));
							answered.incrementAndGet();
						}
						catch (McpException ex) {
							// typed: the upstream left meanwhile, or had no live instance
						}
						catch (Throwable ex) {
							untyped.add(ex);
						}
					});
					sleep(5);
				}
			});
			flapper.start();
			reader.start();
			caller.start();
			Thread.sleep(4000);
			stop.set(true);
			flapper.join(WAIT.toMillis());
			reader.join(WAIT.toMillis());
			caller.join(WAIT.toMillis());
			// the flapper's last step registered the instance again: the registry settles on it
			awaitTrue(() -> {
				discovery.refresh();
				return clients.find("delta").isPresent() && discovery.service("delta") != null
						&& discovery.service("delta").live().size() == 1;
			});
			Thread.sleep(3000); // a few registry fetches more: nothing of the flapping is still on its way
			discovery.refresh();
			awaitTrue(() -> clients.find("delta").isPresent());

			assertThat(untyped).isEmpty();
			List<String> changes = changes("delta");
			long added = changes.stream().filter((c) -> c.endsWith(":ADDED:DISCOVERY")).count();
			long removed = changes.stream().filter((c) -> c.endsWith(":REMOVED:DISCOVERY")).count();
			assertThat(changes).allSatisfy((c) -> assertThat(c).endsWith(":DISCOVERY"));
			assertThat(added - removed).as("changes: %s", changes).isIn(0L, 1L);
			int initializes = server.initializeCount();
			int executions = server.executions("echo");
			McpClient converged = clients.get("delta");
			for (int i = 0; i < 5; i++) {
				assertThat(converged.callTool("echo", Map.of("text", "c" + i)).text()).isEqualTo("c" + i);
			}
			assertThat(server.executions("echo") - executions).isEqualTo(5);
			assertThat(server.initializeCount() - initializes).isLessThanOrEqualTo(1);
			assertThat(server.executions("echo")).isEqualTo(answered.get() + 5);
			// no storm of sessions: each client the flapping made opened one at most
			assertThat(server.initializeCount() - initializesBefore).as("changes: %s", changes)
				.isLessThanOrEqualTo((int) added + 1);
		}
		finally {
			stop.set(true);
			flap.deregister();
			server.close();
		}
	}

	/** Changes the environment as a refresh of the configuration does, then publishes its event. */
	private static void refresh(Map<String, Object> changed) {
		overrides.putAll(changed);
		Set<String> keys = new java.util.HashSet<>(changed.keySet());
		keys.add("mcpx.discovery.service-ids");
		application.publishEvent(new EnvironmentChangeEvent(application, keys));
	}

	private static List<String> changes() {
		return events.stream()
			.filter(McpUpstreamChangedEvent.class::isInstance)
			.map(McpUpstreamChangedEvent.class::cast)
			.map((e) -> e.upstream() + ":" + e.change() + ":" + e.cause())
			.toList();
	}

	private static List<String> refreshChanges() {
		return changes().stream().filter((c) -> c.endsWith(":REFRESH")).toList();
	}

	private static List<String> changes(String upstream) {
		return changes().stream().filter((c) -> c.startsWith(upstream + ":")).toList();
	}

	private static void awaitTrue(BooleanSupplier condition) {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("not within " + WAIT);
			}
			sleep(100);
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** The application under test: a Eureka client, nothing else of its own. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
