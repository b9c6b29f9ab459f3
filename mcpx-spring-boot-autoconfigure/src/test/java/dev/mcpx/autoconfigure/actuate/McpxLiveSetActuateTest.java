package dev.mcpx.autoconfigure.actuate;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health, the {@code mcpx} endpoint and the meters follow the live set of
 * {@link McpClients}: an upstream added while the application runs shows, one removed goes,
 * without a restart (docs/architecture.md, "The live registry").
 */
class McpxLiveSetActuateTest {

	private static JavaSdkServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxHealthContributorAutoConfiguration.class, McpxEndpointAutoConfiguration.class,
				McpxMetricsAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withPropertyValues("mcpx.clients.docs.url=http://127.0.0.1:1/mcp", "management.endpoints.web.exposure.include=mcpx");

	@BeforeAll
	static void start() {
		server = JavaSdkServer.start();
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void anAddedUpstreamGetsAHealthEntryAnEndpointEntryAndMetersAndLosesThemWhenRemoved() {
		this.contextRunner.run((context) -> {
			McpClients clients = context.getBean(McpClients.class);
			CompositeHealthContributor health = context.getBean(McpxHealthContributor.class);
			McpxEndpoint endpoint = context.getBean(McpxEndpoint.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(health.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("docs");

			McpClient late = clients.add("late", URI.create(server.url()), (builder) -> {
			});
			late.callTool("echo", Map.of("text", "before"));
			server.restart(); // a recovery, counted under the upstream's name
			late.callTool("echo", Map.of("text", "after"));

			assertThat(health.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("docs", "late");
			HealthIndicator lateHealth = (HealthIndicator) health.getContributor("late");
			assertThat(lateHealth).isNotNull();
			assertThat(lateHealth.health().getStatus()).isEqualTo(Status.UP);
			assertThat(endpoint.mcpx().upstreams()).containsOnlyKeys("docs", "late");
			assertThat(endpoint.upstream("late")).isNotNull();
			assertThat(meters.find(McpxRecoveryMetrics.NAME).tag("upstream", "late").counters()).isNotEmpty();

			clients.remove("late").get(10, TimeUnit.SECONDS);

			assertThat(health.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("docs");
			assertThat(health.getContributor("late")).isNull();
			assertThat(endpoint.mcpx().upstreams()).containsOnlyKeys("docs");
			assertThat(endpoint.upstream("late")).isNull();
			assertThat(meters.getMeters()).noneMatch((meter) -> "late".equals(meter.getId().getTag("upstream")));
		});
	}

}
