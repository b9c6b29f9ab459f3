package dev.mcpx.autoconfigure.actuate;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClients;

/**
 * Auto-configuration of the recovery counter, {@value McpxRecoveryMetrics#NAME}, and the task
 * counter, {@value McpxTaskMetrics#NAME}, when the application has a Micrometer
 * {@link MeterRegistry}. The request timer,
 * {@code mcpx.client.requests}, needs no configuration here: each client reports its
 * requests to the application's {@code ObservationRegistry}, which Spring Boot turns into
 * a timer (and a span where tracing is configured).
 */
@AutoConfiguration(after = McpxAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
				"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
public final class McpxMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpxRecoveryMetrics mcpxRecoveryMetrics(MeterRegistry registry, ObjectProvider<McpClients> clients) {
		McpxRecoveryMetrics metrics = new McpxRecoveryMetrics(registry);
		// the meters of an upstream removed while the application runs go with it
		clients.ifAvailable((live) -> live.addListener(metrics));
		return metrics;
	}

	@Bean
	@ConditionalOnMissingBean
	McpxTaskMetrics mcpxTaskMetrics(MeterRegistry registry) {
		return new McpxTaskMetrics(registry);
	}

}
