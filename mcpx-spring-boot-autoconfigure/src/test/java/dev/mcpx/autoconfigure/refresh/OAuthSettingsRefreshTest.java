package dev.mcpx.autoconfigure.refresh;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.core.env.MapPropertySource;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.McpxRefreshAutoConfiguration;
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
 * whose {@code oauth} section did not change is left alone.
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

	private static void change(AssertableApplicationContext context, Map<String, Object> properties) {
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("changed-" + System.nanoTime(), properties));
		context.publishEvent(new EnvironmentChangeEvent(context, Set.copyOf(properties.keySet())));
	}

}
