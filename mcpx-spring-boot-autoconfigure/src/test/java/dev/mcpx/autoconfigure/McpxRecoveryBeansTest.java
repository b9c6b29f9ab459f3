package dev.mcpx.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.stubbing.Scenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpCredentials;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.recovery.ReplayContext;
import dev.mcpx.client.recovery.ReplayDecision;
import dev.mcpx.client.recovery.ReplayGate;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static dev.mcpx.testsupport.McpWireMock.sent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Beans that replace or extend recovery: a user {@link ReplayGate} replaces the default
 * decision (docs/architecture.md, "The replay gate"), an {@link McpCredentialsProvider}
 * supplies refreshable credentials (2025-11-25 basic/authorization; docs/architecture.md,
 * "Recovery rules").
 */
class McpxRecoveryBeansTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class))
		.withPropertyValues("mcpx.clients.wire.url=" + wire.mcpUrl(), "mcpx.clients.wire.protocol=legacy");

	private static final String INIT = result("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
			+ "\"serverInfo\":{\"name\":\"w\",\"version\":\"1\"}}");

	@Test
	void aReplayGateBeanReplacesTheDefaultDecision() {
		wire.stubFor(method("initialize").inScenario("s").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson(INIT).withHeader("Mcp-Session-Id", "session-A-0123456789"))
			.willSetStateTo("A"));
		wire.stubFor(method("initialize").inScenario("s").whenScenarioStateIs("A")
			.willReturn(okJson(INIT).withHeader("Mcp-Session-Id", "session-B-0123456789")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("ping").withHeader("Mcp-Session-Id", equalTo("session-A-0123456789"))
			.willReturn(okJson(result("{}"))));
		wire.stubFor(method("tools/list").withHeader("Mcp-Session-Id", equalTo("session-A-0123456789"))
			.willReturn(aResponse().withStatus(404)));
		List<ReplayContext> asked = new CopyOnWriteArrayList<>();
		ReplayGate refuseAll = (context) -> {
			asked.add(context);
			return ReplayDecision.refuse("the application says no");
		};

		this.contextRunner.withBean(ReplayGate.class, () -> refuseAll).run((context) -> {
			McpClient client = context.getBean("wire", McpClient.class);
			client.ping();

			// The default gate would replay a read-shaped listing; the application's gate refuses it.
			assertThatThrownBy(client::listTools).isInstanceOf(McpSessionExpiredException.class)
				.hasMessageContaining("the application says no");
			assertThat(asked).singleElement().satisfies((c) -> assertThat(c.method()).isEqualTo("tools/list"));
		});
	}

	@Test
	void aCredentialsProviderBeanSuppliesAndRefreshesTokens() {
		wire.stubFor(method("initialize").withHeader("Authorization", equalTo("Bearer first"))
			.willReturn(aResponse().withStatus(401)));
		wire.stubFor(method("initialize").withHeader("Authorization", equalTo("Bearer second"))
			.willReturn(okJson(INIT).withHeader("Mcp-Session-Id", "session-A-0123456789")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		AtomicInteger refreshes = new AtomicInteger();
		McpCredentialsProvider provider = (upstream) -> new McpCredentials() {

			@Override
			public void apply(HttpHeaders headers) {
				headers.setBearerAuth((refreshes.get() == 0) ? "first" : "second");
			}

			@Override
			public boolean refresh() {
				refreshes.incrementAndGet();
				return true;
			}

		};

		this.contextRunner.withBean(McpCredentialsProvider.class, () -> provider).run((context) -> {
			context.getBean("wire", McpClient.class).ping();

			assertThat(refreshes).hasValue(1);
			wire.verify(sent("ping").withHeader("Authorization", equalTo("Bearer second")));
		});
	}

}
