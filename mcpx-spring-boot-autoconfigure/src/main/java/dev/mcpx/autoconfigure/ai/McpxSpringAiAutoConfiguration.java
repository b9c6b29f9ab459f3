package dev.mcpx.autoconfigure.ai;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClients;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of the Spring AI bridge: when Spring AI is on the classpath, one
 * {@link ToolCallbackProvider} offers every upstream's tools to the application's models,
 * called through the recovering clients. {@code mcpx.spring-ai.enabled=false} turns it off;
 * a {@link McpToolFilter} bean chooses tools beyond the properties.
 */
@AutoConfiguration(after = McpxAutoConfiguration.class)
@ConditionalOnClass(ToolCallbackProvider.class)
@ConditionalOnBean(McpClients.class)
@ConditionalOnProperty(prefix = "mcpx.spring-ai", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(McpxSpringAiProperties.class)
public final class McpxSpringAiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpxToolCallbackProvider mcpxToolCallbackProvider(McpClients clients, McpxUpstreams upstreams,
			McpxSpringAiProperties springAi, ObjectProvider<McpToolFilter> filters) {
		McpToolFilter filter = (upstream, tool) -> filters.orderedStream().allMatch((f) -> f.test(upstream, tool));
		// Read per upstream from the resolved settings (resolved once each), so that upstreams
		// added while the application runs, and refreshed settings, are followed.
		return new McpxToolCallbackProvider(clients, (name) -> ToolExposure.of(upstreams.get(name)),
				(name) -> upstreams.get(name).listingBound(), filter,
				springAi.isFailOnUnavailableUpstream(), JsonMapper.shared());
	}

	@Bean
	static SpringAiMcpStarterCheck mcpxSpringAiMcpStarterCheck(ListableBeanFactory beanFactory) {
		return new SpringAiMcpStarterCheck(beanFactory);
	}

}
