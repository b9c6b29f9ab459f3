package dev.mcpx.autoconfigure.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClient;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conditions and user-bean override of the health, endpoint and metrics
 * auto-configurations, and the health probe's bound.
 */
class McpxActuateAutoConfigurationTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	/** Refuses connections: a health check that contacted it would not say UNKNOWN. */
	private static final String REFUSING = "http://127.0.0.1:1/mcp";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxHealthContributorAutoConfiguration.class, McpxEndpointAutoConfiguration.class,
				McpxMetricsAutoConfiguration.class));

	@Test
	void theHealthContributorHasOneIndicatorPerUpstreamNamedAfterIt() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=" + REFUSING, "mcpx.clients.docs.url=" + REFUSING)
			.run((context) -> {
				assertThat(context).hasSingleBean(McpxHealthContributor.class).hasBean("mcpxHealthContributor");
				CompositeHealthContributor mcpx = context.getBean(McpxHealthContributor.class);
				assertThat(mcpx.stream().map(CompositeHealthContributor.Entry::name)).containsExactly("weather",
						"docs");
				assertThat(mcpx.getContributor("weather")).isInstanceOf(HealthIndicator.class);
			});
	}

	@Test
	void beforeFirstContactAnUpstreamIsUnknownAndTheHealthCheckDoesNotContactIt() {
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=" + REFUSING).run((context) -> {
			Health health = indicator(context.getBean(McpxHealthContributor.class), "weather").health();

			assertThat(health.getStatus()).isEqualTo(Status.UNKNOWN);
			assertThat(health.getDetails()).containsEntry("reason", "no exchange with the upstream yet");
			assertThat(health.getDetails()).containsEntry("url", REFUSING)
				.containsEntry("sessionGeneration", 0L)
				.containsOnlyKeys("reason", "url", "sessionGeneration", "recoveries", "reissues");
			assertThat(context.getBean("weather", McpClient.class).status().contacted()).isFalse();
		});
	}

	@Test
	void whenTheMcpxHealthIndicatorIsDisabledThereIsNoContributor() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=" + REFUSING, "management.health.mcpx.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean("mcpxHealthContributor"));
	}

	@Test
	void withoutSpringBootsHealthModuleThereIsNoContributor() {
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=" + REFUSING)
			.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean("mcpxHealthContributor");
			});
	}

	@Test
	void aUserBeanNamedMcpxHealthContributorWins() {
		HealthIndicator own = () -> Health.up().build();
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=" + REFUSING)
			.withBean("mcpxHealthContributor", HealthContributor.class, () -> own)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(McpxHealthContributor.class);
				assertThat(context.getBean("mcpxHealthContributor")).isSameAs(own);
			});
	}

	@Test
	void anInvalidHealthSettingFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=" + REFUSING, "mcpx.health.timeout=0s")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidMcpxPropertyException.class)
				.hasMessageContaining("mcpx.health.timeout"));
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=" + REFUSING, "mcpx.health.down-after-failures=0")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("mcpx.health.down-after-failures"));
	}

	@Test
	void theEndpointAndItsHistoryAreThereOnlyWhenTheEndpointIsExposed() {
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=" + REFUSING).run((context) -> {
			assertThat(context).doesNotHaveBean(McpxEndpoint.class);
			assertThat(context).doesNotHaveBean(McpxEventHistory.class);
		});
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=" + REFUSING,
					"management.endpoints.web.exposure.include=mcpx")
			.run((context) -> {
				assertThat(context).hasSingleBean(McpxEndpoint.class).hasSingleBean(McpxEventHistory.class);
				assertThat(context.getBean(McpxEndpoint.class).mcpx().upstreams()).containsOnlyKeys("weather");
				assertThat(context.getBean(McpxEndpoint.class).upstream("nope")).isNull();
			});
	}

	@Test
	void withoutActuatorThereIsNoEndpoint() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=" + REFUSING,
					"management.endpoints.web.exposure.include=mcpx")
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(McpxEndpoint.class);
			});
	}

	@Test
	void recoveryMetricsNeedAMeterRegistry() {
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=" + REFUSING)
			.run((context) -> assertThat(context).doesNotHaveBean(McpxRecoveryMetrics.class));
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=" + REFUSING)
			.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(McpxRecoveryMetrics.class));
	}

	@Test
	void aProbeNeverHoldsAHealthCheckLongerThanItsTimeout() {
		stubHandshake();
		wire.stubFor(method("ping").willReturn(okJson(result("{}")).withFixedDelay(4000)));
		this.contextRunner
			.withPropertyValues("mcpx.clients.slow.url=" + wire.mcpUrl(), "mcpx.clients.slow.protocol=legacy",
					"mcpx.health.probe=true", "mcpx.health.probe-interval=0s", "mcpx.health.timeout=300ms")
			.run((context) -> {
				HealthIndicator slow = indicator(context.getBean(McpxHealthContributor.class), "slow");
				for (int check = 0; check < 2; check++) {
					long started = System.nanoTime();
					Health health = slow.health();
					Duration took = Duration.ofNanos(System.nanoTime() - started);

					assertThat(took).isLessThan(Duration.ofMillis(1500));
					assertThat(health.getStatus()).isEqualTo(Status.DOWN);
					assertThat(health.getDetails()).containsEntry("reason", "no answer to a ping within 300 ms");
				}
			});
	}

	static HealthIndicator indicator(CompositeHealthContributor mcpx, String name) {
		return (HealthIndicator) mcpx.getContributor(name);
	}

	private static void stubHandshake() {
		wire.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"wire-server\",\"version\":\"9.9\"}}"))
			.withHeader("Mcp-Session-Id", "session-0123456789abcdef")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("notifications/cancelled").willReturn(aResponse().withStatus(202)));
	}

}
