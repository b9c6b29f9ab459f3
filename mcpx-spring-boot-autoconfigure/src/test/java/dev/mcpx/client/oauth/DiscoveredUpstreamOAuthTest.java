package dev.mcpx.client.oauth;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.PayloadApplicationEvent;

import dev.mcpx.autoconfigure.McpUpstreamRejectedEvent;
import dev.mcpx.autoconfigure.discovery.McpxDiscovery;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.testsupport.EurekaRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * OAuth for an upstream discovered in a service registry works like a configured upstream's: its
 * service's {@code mcpx.discovery.services.<id>.oauth.*} (else {@code mcpx.discovery.defaults.oauth.*})
 * become its credentials, for the canonical resource its instances share (2025-11-25 basic/authorization
 * §Resource Parameter Implementation). Against a real Eureka server and a real authorization server (Spring
 * Authorization Server, with an MCP server behind Spring Security's resource server that accepts tokens for
 * its canonical URL only), the MCP server registered as two instances: the token obtained once serves calls
 * on both. Counted on the servers.
 */
class DiscoveredUpstreamOAuthTest {

	/** Generous: a loaded machine may take long to fetch the registry; a wait never decides a result. */
	private static final Duration WAIT = Duration.ofSeconds(60);

	private static AuthorizationServerApp server;

	private static EurekaRegistry registry;

	private static ConfigurableApplicationContext application;

	private static final List<McpUpstreamRejectedEvent> rejected = new CopyOnWriteArrayList<>();

	@BeforeAll
	static void start() {
		server = AuthorizationServerApp.start(Duration.ofMinutes(10));
		registry = EurekaRegistry.start();
		Map<String, Object> properties = new LinkedHashMap<>(registry.clientProperties());
		properties.put("spring.main.banner-mode", "off");
		properties.put("mcpx.discovery.enabled", true);
		String secured = "mcpx.discovery.services.secured.oauth.";
		properties.put(secured + "grant", "client-credentials");
		properties.put(secured + "client-id", AuthorizationServerApp.CLIENT_ID);
		properties.put(secured + "client-secret", AuthorizationServerApp.CLIENT_SECRET);
		properties.put(secured + "resource", server.mcpUrl());
		// every other discovered service: credentials, but no resource, which a discovered upstream needs
		properties.put("mcpx.discovery.defaults.oauth.grant", "client-credentials");
		properties.put("mcpx.discovery.defaults.oauth.client-id", AuthorizationServerApp.CLIENT_ID);
		properties.put("mcpx.discovery.defaults.oauth.client-secret", AuthorizationServerApp.CLIENT_SECRET);
		application = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.listeners((ApplicationListener<?>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload
						&& payload.getPayload() instanceof McpUpstreamRejectedEvent rejection) {
					rejected.add(rejection);
				}
			})
			.run(EurekaRegistry.arguments(properties));
	}

	@AfterAll
	static void stop() {
		if (application != null) {
			application.close();
		}
		if (registry != null) {
			registry.close();
		}
		if (server != null) {
			server.close();
		}
	}

	@Test
	void aDiscoveredUpstreamGetsItsServicesCredentialsAndOneTokenServesEveryInstance() {
		McpClients clients = application.getBean(McpClients.class);
		McpxDiscovery discovery = application.getBean(McpxDiscovery.class);
		Map<String, String> legacy = Map.of("mcp.path", "/mcp", "mcp.protocol", "legacy");
		EurekaRegistry.Registration a = registry.register("secured", "secured-a", URI.create(server.mcpUrl()), legacy);
		EurekaRegistry.Registration b = registry.register("secured", "secured-b", "localhost", server.port(), legacy);
		int tokenRequests = server.counters().tokenRequests.get();
		int executions = server.counters().executions.get();
		try {
			awaitTrue(() -> discovery.service("secured") != null && discovery.service("secured").live().size() == 2);
			McpClient client = clients.get("secured");
			for (int i = 0; i < 3; i++) {
				assertThat(client.callTool("echo", Map.of("text", "both" + i)).text()).isEqualTo("both" + i);
			}
			// whichever instance has the session, each in turn becomes the only one: the session moves
			b.deregister();
			awaitTrue(() -> discovery.service("secured").live().size() == 1);
			for (int i = 0; i < 3; i++) {
				assertThat(client.callTool("echo", Map.of("text", "a" + i)).text()).isEqualTo("a" + i);
			}
			b.reregister();
			awaitTrue(() -> discovery.service("secured").live().size() == 2);
			a.deregister();
			awaitTrue(() -> discovery.service("secured").live().size() == 1
					&& discovery.service("secured").live().get(0).getHost().equals("localhost"));
			for (int i = 0; i < 3; i++) {
				assertThat(client.callTool("echo", Map.of("text", "b" + i)).text()).isEqualTo("b" + i);
			}

			assertThat(server.counters().executions.get() - executions).isEqualTo(9);
			// one token, for the resource the instances share, accepted on both
			assertThat(server.counters().tokenRequests.get() - tokenRequests).isEqualTo(1);
			assertThat(server.counters().audiences).containsExactly(server.mcpUrl());
			assertThat(clients.get("secured")).isSameAs(client);
		}
		finally {
			a.deregister();
			b.deregister();
		}
	}

	@Test
	void aDiscoveredUpstreamWithCredentialsButNoResourceIsRefusedNamingTheProperty() {
		McpClients clients = application.getBean(McpClients.class);
		McpxDiscovery discovery = application.getBean(McpxDiscovery.class);
		EurekaRegistry.Registration open = registry.register("unscoped", "unscoped-1", URI.create(server.mcpUrl()),
				Map.of("mcp.path", "/mcp"));
		try {
			awaitTrue(() -> rejected.stream().anyMatch((event) -> event.upstream().equals("unscoped")));
			discovery.refresh();

			assertThat(clients.find("unscoped")).isEmpty();
			assertThat(rejected).filteredOn((event) -> event.upstream().equals("unscoped"))
				.singleElement()
				.satisfies((event) -> {
					assertThat(event.property()).isEqualTo("mcpx.discovery.defaults.oauth.resource");
					assertThat(event.problem()).contains("canonical URL");
					assertThat(event.toString()).doesNotContain(AuthorizationServerApp.CLIENT_SECRET);
				});
		}
		finally {
			open.deregister();
		}
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
