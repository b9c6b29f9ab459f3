package dev.mcpx.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
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

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
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
	static WireMockExtension wire = WireMockExtension.newInstance()
		.options(wireMockConfig().dynamicPort().bindAddress("127.0.0.1").globalTemplating(true))
		.build();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class))
		.withPropertyValues("mcpx.clients.wire.url=" + wire.baseUrl() + "/mcp", "mcpx.clients.wire.protocol=legacy");

	private static MappingBuilder method(String method) {
		return post(urlEqualTo("/mcp")).withRequestBody(matchingJsonPath("$.method", equalTo(method)));
	}

	private static String result(String json) {
		return "{\"jsonrpc\":\"2.0\",\"id\":{{jsonPath request.body '$.id'}},\"result\":" + json + "}";
	}

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
			wire.verify(postRequestedFor(urlEqualTo("/mcp")).withRequestBody(matchingJsonPath("$.method",
					equalTo("ping"))).withHeader("Authorization", equalTo("Bearer second")));
		});
	}

}
