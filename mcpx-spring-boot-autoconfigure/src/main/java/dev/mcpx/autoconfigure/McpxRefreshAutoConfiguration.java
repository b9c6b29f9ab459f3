package dev.mcpx.autoconfigure;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.mcpx.client.McpClients;

/**
 * Auto-configuration of the configuration refresh, with Spring Cloud Context on the class
 * path: an {@link EnvironmentChangeEvent} (Spring Cloud Config's {@code /actuator/refresh},
 * a Kubernetes ConfigMap reload, ...) whose keys touch {@code mcpx.clients.*},
 * {@code mcpx.defaults.*} or {@code mcpx.discovery.*} applies the new upstream settings to the live set of
 * {@link McpClients} ({@link McpxConfigurationRefresh}).
 */
@AutoConfiguration(after = McpxAutoConfiguration.class)
@ConditionalOnClass(EnvironmentChangeEvent.class)
@ConditionalOnBean({ McpClients.class, McpxUpstreams.class, McpClientConfigurer.class })
public final class McpxRefreshAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpxConfigurationRefresh mcpxConfigurationRefresh(Environment environment, McpxUpstreams upstreams,
			McpClientConfigurer configurer, McpClients clients, ApplicationEventPublisher events) {
		return new McpxConfigurationRefresh(environment, upstreams, configurer, clients, events);
	}

	@Bean
	ApplicationListener<EnvironmentChangeEvent> mcpxEnvironmentChangeListener(McpxConfigurationRefresh refresh) {
		return (event) -> {
			if (McpxConfigurationRefresh.touchesUpstreams(event.getKeys())) {
				refresh.refresh();
			}
		};
	}

}
