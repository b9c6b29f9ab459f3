package dev.mcpx.autoconfigure.actuate;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Health, the {@code mcpx} endpoint and the metrics against a real upstream, the official
 * MCP Java SDK server in the JVM: as it answers, restarts and stops.
 */
class McpxActuateInteropTest {

	private JavaSdkServer server;

	private ApplicationContextRunner contextRunner;

	@BeforeEach
	void startServer() {
		this.server = JavaSdkServer.start();
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
					CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
					RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
					McpxHealthContributorAutoConfiguration.class, McpxEndpointAutoConfiguration.class,
					McpxMetricsAutoConfiguration.class))
			.withPropertyValues("mcpx.clients.sdk.url=" + this.server.url(),
					"management.endpoints.web.exposure.include=mcpx");
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	@Test
	void healthIsUnknownBeforeFirstContactUpAfterACallAndDownWhenCallsCannotReachTheStoppedUpstream() {
		this.contextRunner.run((context) -> {
			HealthIndicator sdk = indicator(context);
			McpClient client = client(context);
			assertThat(sdk.health().getStatus()).isEqualTo(Status.UNKNOWN);

			client.listTools();
			Health up = sdk.health();
			assertThat(up.getStatus()).isEqualTo(Status.UP);
			assertThat(up.getDetails()).containsEntry("url", this.server.url())
				.containsEntry("era", "legacy")
				.containsEntry("protocolVersion", "2025-11-25")
				.containsEntry("serverName", "java-sdk-test-server")
				.containsEntry("serverVersion", "2.1.0")
				.containsEntry("sessionGeneration", 1L)
				.containsEntry("recoveries", 0L)
				.containsKey("lastSuccess")
				.doesNotContainKey("lastError");

			this.server.close();
			assertThatThrownBy(client::ping).isInstanceOf(McpTransportException.class);
			Health down = sdk.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(down.getDetails()).containsEntry("reason", "the upstream could not be reached");
			assertThat((String) down.getDetails().get("lastError")).startsWith("McpTransportException: [sdk] ");
		});
	}

	@Test
	void withTheProbeHealthFindsTheUpstreamUpAndThenStoppedWithoutAnyCaller() {
		this.contextRunner.withPropertyValues("mcpx.health.probe=true", "mcpx.health.probe-interval=0s")
			.run((context) -> {
				HealthIndicator sdk = indicator(context);
				assertThat(sdk.health().getStatus()).isEqualTo(Status.UP);
				assertThat(this.server.requestCount("ping")).isEqualTo(1);

				this.server.close();
				Health down = sdk.health();
				assertThat(down.getStatus()).isEqualTo(Status.DOWN);
				assertThat(down.getDetails()).containsEntry("reason", "the upstream could not be reached");
			});
	}

	@Test
	void withTheProbeAFreshExchangeIsNotPingedAgain() {
		this.contextRunner.withPropertyValues("mcpx.health.probe=true", "mcpx.health.probe-interval=1h")
			.run((context) -> {
				client(context).listTools();
				assertThat(indicator(context).health().getStatus()).isEqualTo(Status.UP);
				assertThat(this.server.requestCount("ping")).isZero();
			});
	}

	@Test
	void afterARestartTheRecoveryShowsInTheCounterTheEndpointAndTheHealth() {
		this.contextRunner.run((context) -> {
			McpClient client = client(context);
			client.ping();
			this.server.restart();
			assertThat(client.callTool("echo", Map.of("text", "again")).isError()).isFalse();

			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(registry.get(McpxRecoveryMetrics.NAME)
				.tags("upstream", "sdk", "kind", "session-expiry", "outcome", "recovered")
				.counter()
				.count()).isEqualTo(1);

			McpxEndpoint.McpxDescriptor mcpx = context.getBean(McpxEndpoint.class).mcpx();
			assertThat(mcpx.upstreams().get("sdk")).containsEntry("status", "UP")
				.containsEntry("recoveries", 1L)
				.containsEntry("sessionGeneration", 2L)
				.containsKey("lastRecovery");
			List<Object> types = mcpx.events().stream().map((event) -> event.get("type")).toList();
			assertThat(types).containsSubsequence("McpSessionExpiredEvent", "McpSessionRecoveredEvent",
					"McpRequestReissuedEvent");
			Map<String, Object> recovered = mcpx.events()
				.stream()
				.filter((event) -> event.get("type").equals("McpSessionRecoveredEvent"))
				.findFirst()
				.orElseThrow();
			assertThat(recovered).containsEntry("upstream", "sdk")
				.containsEntry("oldGeneration", 1L)
				.containsEntry("newGeneration", 2L)
				.containsKeys("at", "duration");
			assertThat(context.getBean(McpxEndpoint.class).upstream("sdk").events()).hasSameSizeAs(mcpx.events());

			Health health = indicator(context).health();
			assertThat(health.getDetails()).containsEntry("recoveries", 1L).containsKey("lastRecovery");
		});
	}

	@Test
	void eachRequestIsTimedByItsObservationWithUpstreamMethodAndOutcome() {
		this.contextRunner.run((context) -> {
			McpClient client = client(context);
			client.ping();
			client.callTool("echo", Map.of("text", "one"));
			client.callTool("echo", Map.of("text", "two"));
			this.server.close();
			assertThatThrownBy(client::ping).isInstanceOf(McpTransportException.class);

			MeterRegistry registry = context.getBean(MeterRegistry.class);
			Timer calls = registry.get("mcpx.client.requests")
				.tags("upstream", "sdk", "method", "tools/call", "outcome", "success")
				.timer();
			assertThat(calls.count()).isEqualTo(2);
			assertThat(registry.get("mcpx.client.requests")
				.tags("upstream", "sdk", "method", "ping", "outcome", "success")
				.timer()
				.count()).isEqualTo(1);
			assertThat(registry.get("mcpx.client.requests")
				.tags("upstream", "sdk", "method", "ping", "outcome", "McpTransportException")
				.timer()
				.count()).isEqualTo(1);
		});
	}

	private static HealthIndicator indicator(AssertableApplicationContext context) {
		return McpxActuateAutoConfigurationTest.indicator(context.getBean(McpxHealthContributor.class), "sdk");
	}

	private static McpClient client(AssertableApplicationContext context) {
		return context.getBean("sdk", McpClient.class);
	}

}
