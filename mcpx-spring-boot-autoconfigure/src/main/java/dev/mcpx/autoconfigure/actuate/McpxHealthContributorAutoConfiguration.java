package dev.mcpx.autoconfigure.actuate;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.autoconfigure.tasks.McpTaskJournalMonitor;
import dev.mcpx.autoconfigure.tasks.McpxTasksAutoConfiguration;
import dev.mcpx.client.McpClients;

/**
 * Auto-configuration of the health of every upstream, under one contributor named
 * {@code mcpx} ({@code /actuator/health/mcpx/<name>}), when the application has Spring
 * Boot's health module. Switched off by {@code management.health.mcpx.enabled=false};
 * replaced by a bean of the application named {@code mcpxHealthContributor} or
 * {@code mcpxHealthIndicator}. Settings under {@code mcpx.health}. With a task journal, its
 * health too, as {@code mcpxTaskJournal}.
 */
@AutoConfiguration(after = { McpxAutoConfiguration.class, McpxTasksAutoConfiguration.class })
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(McpClients.class)
@ConditionalOnEnabledHealthIndicator("mcpx")
public final class McpxHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "mcpxHealthIndicator", "mcpxHealthContributor" })
	McpxHealthContributor mcpxHealthContributor(McpClients clients, McpxProperties properties) {
		return new McpxHealthContributor(clients, McpxHealthSettings.of(properties.getHealth()));
	}

	/** The task journal's health, {@code mcpxTaskJournal}, beside the upstreams'. */
	@Bean
	@ConditionalOnMissingBean(name = "mcpxTaskJournalHealthIndicator")
	@ConditionalOnBean(McpTaskJournalMonitor.class)
	McpxTaskJournalHealthIndicator mcpxTaskJournalHealthIndicator(McpTaskJournalMonitor monitor) {
		return new McpxTaskJournalHealthIndicator(monitor);
	}

}
