package dev.mcpx.autoconfigure.refresh;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.core.env.MapPropertySource;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.McpxRefreshAutoConfiguration;
import dev.mcpx.autoconfigure.discovery.McpxDiscoveryAutoConfiguration;
import dev.mcpx.autoconfigure.oauth.McpxOAuthAutoConfiguration;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpClientClosedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A refresh sees a change of an upstream's {@code oauth} settings, which its resolved
 * settings leave to the OAuth customizer (docs/architecture.md, "Configuration refresh"): the
 * upstream is replaced, with the new credentials built from the new section, and an upstream
 * whose {@code oauth} section did not change is left alone. The same holds for an upstream
 * discovered in a service registry, whose section is its service's
 * ({@code mcpx.discovery.services.<id>.oauth}), else every discovered upstream's
 * ({@code mcpx.discovery.defaults.oauth}).
 */
class OAuthSettingsRefreshTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxOAuthAutoConfiguration.class, McpxRefreshAutoConfiguration.class))
		.withPropertyValues("mcpx.clients.guarded.url=http://127.0.0.1:1/mcp",
				"mcpx.clients.guarded.oauth.grant=client-credentials", "mcpx.clients.guarded.oauth.client-id=app",
				"mcpx.clients.guarded.oauth.client-secret=first-secret", "mcpx.clients.open.url=http://127.0.0.1:1/other",
				"mcpx.clients.open.oauth.grant=client-credentials", "mcpx.clients.open.oauth.client-id=other");

	@Test
	void aChangedOAuthSectionReplacesItsUpstreamAndNoOther() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			McpClients clients = context.getBean(McpClients.class);
			McpClient guarded = clients.get("guarded");
			McpClient open = clients.get("open");

			change(context, Map.of("mcpx.clients.guarded.oauth.client-secret", "second-secret"));

			assertThat(clients.get("guarded")).isNotSameAs(guarded);
			assertThatThrownBy(() -> guarded.listTools()).isInstanceOf(McpClientClosedException.class);
			assertThat(clients.get("open")).isSameAs(open);
		});
	}

	@Test
	void aRefreshThatChangesNoOAuthSettingLeavesEveryUpstreamAlone() {
		this.contextRunner.run((context) -> {
			McpClients clients = context.getBean(McpClients.class);
			McpClient guarded = clients.get("guarded");
			McpClient open = clients.get("open");

			// the same values again, from a source of their own: nothing changed
			change(context, Map.of("mcpx.clients.guarded.oauth.client-secret", "first-secret",
					"mcpx.clients.open.oauth.client-id", "other"));

			assertThat(clients.get("guarded")).isSameAs(guarded);
			assertThat(clients.get("open")).isSameAs(open);
		});
	}

	@Test
	void anOAuthSectionAddedToAnUpstreamReplacesIt() {
		this.contextRunner.withPropertyValues("mcpx.clients.plain.url=http://127.0.0.1:1/plain").run((context) -> {
			McpClients clients = context.getBean(McpClients.class);
			McpClient plain = clients.get("plain");
			McpClient guarded = clients.get("guarded");

			change(context, Map.of("mcpx.clients.plain.oauth.grant", "client-credentials",
					"mcpx.clients.plain.oauth.client-id", "plain-app"));

			assertThat(clients.get("plain")).isNotSameAs(plain);
			assertThat(clients.get("guarded")).isSameAs(guarded);
		});
	}

	/**
	 * Two discovered services: {@code secured} with an {@code oauth} section of its own,
	 * {@code other} with the one of every discovered upstream.
	 */
	private final ApplicationContextRunner discoveryRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxOAuthAutoConfiguration.class, McpxRefreshAutoConfiguration.class,
				McpxDiscoveryAutoConfiguration.class))
		.withBean(DiscoveryClient.class, Registry::new)
		.withPropertyValues("mcpx.discovery.enabled=true", "mcpx.discovery.service-ids=secured,other",
				"mcpx.discovery.services.secured.oauth.grant=client-credentials",
				"mcpx.discovery.services.secured.oauth.client-id=app",
				"mcpx.discovery.services.secured.oauth.client-secret=first-secret",
				"mcpx.discovery.services.secured.oauth.resource=https://secured.example/mcp",
				"mcpx.discovery.defaults.oauth.grant=client-credentials",
				"mcpx.discovery.defaults.oauth.client-id=every-app",
				"mcpx.discovery.defaults.oauth.resource=https://other.example/mcp");

	@Test
	void aChangedOAuthSectionOfADiscoveredServiceReplacesItsUpstreamAndNoOther() {
		this.discoveryRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			McpClients clients = context.getBean(McpClients.class);
			McpClient secured = clients.get("secured");
			McpClient other = clients.get("other");

			change(context, Map.of("mcpx.discovery.services.secured.oauth.client-secret", "second-secret"));

			assertThat(clients.get("secured")).isNotSameAs(secured);
			assertThatThrownBy(() -> secured.listTools()).isInstanceOf(McpClientClosedException.class);
			assertThat(clients.get("other")).isSameAs(other);
		});
	}

	@Test
	void aChangeOfEveryDiscoveredUpstreamsOAuthSectionReplacesOnlyThoseThatUseIt() {
		this.discoveryRunner.run((context) -> {
			McpClients clients = context.getBean(McpClients.class);
			McpClient secured = clients.get("secured");
			McpClient other = clients.get("other");

			change(context, Map.of("mcpx.discovery.defaults.oauth.client-id", "every-app-2"));

			assertThat(clients.get("other")).isNotSameAs(other);
			assertThatThrownBy(() -> other.listTools()).isInstanceOf(McpClientClosedException.class);
			// its own section wins over the defaults: unchanged
			assertThat(clients.get("secured")).isSameAs(secured);
		});
	}

	@Test
	void aRefreshThatChangesNoOAuthSettingLeavesEveryDiscoveredUpstreamAlone() {
		this.discoveryRunner.run((context) -> {
			McpClients clients = context.getBean(McpClients.class);
			McpClient secured = clients.get("secured");
			McpClient other = clients.get("other");

			change(context, Map.of("mcpx.discovery.services.secured.oauth.client-secret", "first-secret",
					"mcpx.discovery.defaults.oauth.client-id", "every-app"));

			assertThat(clients.get("secured")).isSameAs(secured);
			assertThat(clients.get("other")).isSameAs(other);
		});
	}

	private static void change(AssertableApplicationContext context, Map<String, Object> properties) {
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("changed-" + System.nanoTime(), properties));
		context.publishEvent(new EnvironmentChangeEvent(context, Set.copyOf(properties.keySet())));
	}

	/** A registry of two services, one instance each, where nothing listens (clients connect on first use). */
	static final class Registry implements DiscoveryClient {

		@Override
		public String description() {
			return "two MCP services";
		}

		@Override
		public List<ServiceInstance> getInstances(String serviceId) {
			return List.of(new DefaultServiceInstance(serviceId + "-1", serviceId, "127.0.0.1", 1, false,
					Map.of("mcp.path", "/mcp")));
		}

		@Override
		public List<String> getServices() {
			return List.of("secured", "other");
		}

	}

}
