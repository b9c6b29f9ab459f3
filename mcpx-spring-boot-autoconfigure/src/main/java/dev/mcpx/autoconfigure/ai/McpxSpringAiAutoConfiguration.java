package dev.mcpx.autoconfigure.ai;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

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
import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.client.McpClientBuilder;
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
	McpxToolCallbackProvider mcpxToolCallbackProvider(McpClients clients, McpxProperties properties,
			McpxSpringAiProperties springAi, ObjectProvider<McpToolFilter> filters) {
		McpToolFilter filter = (upstream, tool) -> filters.orderedStream().allMatch((f) -> f.test(upstream, tool));
		// Settings are read once: properties do not change after startup.
		Map<String, ToolExposure> exposures = new HashMap<>();
		clients.names().forEach((name) -> exposures.put(name, ToolExposure.of(properties, name)));
		return new McpxToolCallbackProvider(clients, exposures::get, (name) -> listingBound(properties, name), filter,
				springAi.isFailOnUnavailableUpstream(), JsonMapper.shared());
	}

	@Bean
	static SpringAiMcpStarterCheck mcpxSpringAiMcpStarterCheck(ListableBeanFactory beanFactory) {
		return new SpringAiMcpStarterCheck(beanFactory);
	}

	/**
	 * How long a chat request waits for an upstream's tools: a cold listing connects, shakes
	 * hands and lists, so the connect and handshake timeouts (a stdio upstream has no
	 * connect). An upstream that is down fails sooner, within its connect timeout.
	 */
	private static Duration listingBound(McpxProperties properties, String name) {
		// A user's own McpClients bean may hold clients that have no properties.
		McpxProperties.Client client = properties.getClients().getOrDefault(name, new McpxProperties.Client());
		McpxProperties.Defaults defaults = properties.getDefaults();
		Duration handshake = pick(client.getHandshakeTimeout(), defaults.getHandshakeTimeout(),
				McpClientBuilder.DEFAULT_HANDSHAKE_TIMEOUT);
		if (client.getCommand() != null && !client.getCommand().isBlank()) {
			return handshake;
		}
		return pick(client.getConnectTimeout(), defaults.getConnectTimeout(), McpClientBuilder.DEFAULT_CONNECT_TIMEOUT)
			.plus(handshake);
	}

	private static Duration pick(@Nullable Duration own, @Nullable Duration fallback, Duration builtIn) {
		return (own != null) ? own : (fallback != null) ? fallback : builtIn;
	}

}
