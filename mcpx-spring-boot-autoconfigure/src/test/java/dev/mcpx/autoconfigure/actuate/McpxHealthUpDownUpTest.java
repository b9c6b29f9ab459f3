package dev.mcpx.autoconfigure.actuate;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the probe on and no caller at all, health follows an upstream that stops and comes
 * back as a new server on the same port, which knows nothing of the old session: UP, DOWN,
 * then UP again once the client has recovered. Scripted with WireMock, the test fixture
 * that can be started again on a given port.
 */
class McpxHealthUpDownUpTest {

	private WireMockServer first;

	private WireMockServer second;

	@AfterEach
	void stopServers() {
		for (WireMockServer server : new WireMockServer[] { this.first, this.second }) {
			if (server != null && server.isRunning()) {
				server.stop();
			}
		}
	}

	@Test
	void healthIsUpThenDownWhileTheUpstreamIsStoppedThenUpWhenANewServerAnswersOnTheSamePort() {
		this.first = new WireMockServer(McpWireMock.options());
		this.first.start();
		int port = this.first.port();
		stubSession(this.first, "session-A-0123456789abcdef");
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
					McpxHealthContributorAutoConfiguration.class, McpxMetricsAutoConfiguration.class))
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withPropertyValues("mcpx.clients.up.url=http://127.0.0.1:" + port + "/mcp",
					"mcpx.clients.up.protocol=legacy", "mcpx.health.probe=true", "mcpx.health.probe-interval=0s",
					// a stopped server refuses at once; the bound is for a cold client's first ping on a busy machine
					"mcpx.health.timeout=15s")
			.run((context) -> {
				HealthIndicator up = McpxActuateAutoConfigurationTest
					.indicator(context.getBean(McpxHealthContributor.class), "up");

				Health first = up.health();
				assertThat(first.getStatus()).isEqualTo(Status.UP);
				assertThat(first.getDetails()).containsEntry("sessionGeneration", 1L).containsEntry("recoveries", 0L);

				this.first.stop();
				Health stopped = up.health();
				assertThat(stopped.getStatus()).isEqualTo(Status.DOWN);
				assertThat(stopped.getDetails()).containsEntry("reason", "the upstream could not be reached");

				this.second = new WireMockServer(McpWireMock.options().port(port));
				this.second.start();
				stubSession(this.second, "session-B-0123456789abcdef");
				Health back = up.health();
				assertThat(back.getStatus()).isEqualTo(Status.UP);
				assertThat(back.getDetails()).containsEntry("sessionGeneration", 2L)
					.containsEntry("recoveries", 1L)
					.containsKey("lastRecovery");
				assertThat(context.getBean(MeterRegistry.class)
					.get(McpxRecoveryMetrics.NAME)
					.tags("upstream", "up", "kind", "session-expiry", "outcome", "recovered")
					.counter()
					.count()).isEqualTo(1);
			});
	}

	/** A server that knows one session; a request in any other is answered 404 (WireMock's "no stub"). */
	private static void stubSession(WireMockServer server, String sessionId) {
		server.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"wire-server\",\"version\":\"9.9\"}}"))
			.withHeader("Mcp-Session-Id", sessionId)));
		server.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		server.stubFor(
				method("ping").withHeader("Mcp-Session-Id", equalTo(sessionId)).willReturn(okJson(result("{}"))));
	}

}
