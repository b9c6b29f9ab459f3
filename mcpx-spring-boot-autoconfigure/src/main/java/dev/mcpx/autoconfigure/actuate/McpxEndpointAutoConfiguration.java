package dev.mcpx.autoconfigure.actuate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.autoconfigure.tasks.McpxTasksAutoConfiguration;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTaskStore;

/**
 * Auto-configuration of the {@code mcpx} Actuator endpoint and the event history it
 * shows, when the application has Spring Boot's Actuator and exposes the endpoint (for
 * example {@code management.endpoints.web.exposure.include=health,mcpx}).
 */
@AutoConfiguration(after = { McpxAutoConfiguration.class, McpxTasksAutoConfiguration.class })
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(McpClients.class)
@ConditionalOnAvailableEndpoint(McpxEndpoint.class)
public final class McpxEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpxEventHistory mcpxEventHistory() {
		return new McpxEventHistory();
	}

	@Bean
	@ConditionalOnMissingBean
	McpxEndpoint mcpxEndpoint(McpClients clients, McpxEventHistory history, McpxProperties properties,
			ObjectProvider<McpTaskStore> tasks) {
		return new McpxEndpoint(clients, history, McpxHealthSettings.of(properties.getHealth()).downAfterFailures(),
				tasks.getIfUnique());
	}

}
