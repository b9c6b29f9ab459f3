package dev.mcpx.autoconfigure.tasks;

import java.time.Duration;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.InMemoryMcpTaskStore;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTaskStore;

/**
 * The task journal ({@code mcpx.tasks.*}): an {@link McpTaskStore} bean, in memory by default, in the application's
 * database with {@code mcpx.tasks.store: jdbc} (a {@code DataSource} bean and Spring Boot's JDBC module needed). A
 * {@link McpTaskStore} bean of the application's own replaces it.
 */
@AutoConfiguration(after = McpxAutoConfiguration.class,
		afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@EnableConfigurationProperties(McpxTasksProperties.class)
public final class McpxTasksAutoConfiguration {

	static final String STORE = "mcpx.tasks.store";

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(name = STORE, havingValue = "memory", matchIfMissing = true)
	McpTaskStore mcpTaskStore(McpxTasksProperties properties) {
		return new InMemoryMcpTaskStore(positive(properties.getLease(), "mcpx.tasks.lease"));
	}

	/** Sees every read and write of the journal, for health: each client's and the resumption's. */
	@Bean
	@ConditionalOnMissingBean
	McpTaskJournalMonitor mcpTaskJournalMonitor() {
		return new McpTaskJournalMonitor();
	}

	/** Takes up orphaned tasks at start and every {@code mcpx.tasks.resume-interval}, with any journal. */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(McpClients.class)
	TaskJournalResumption mcpTaskJournalResumption(McpTaskStore store, McpTaskJournalMonitor monitor,
			McpClients clients, ApplicationEventPublisher publisher, McpxTasksProperties properties) {
		return new TaskJournalResumption(monitor.watch(store), clients, publisher,
				positive(properties.getResumeInterval(), "mcpx.tasks.resume-interval"));
	}

	static Duration positive(Duration value, String property) {
		if (value.isNegative() || value.isZero()) {
			throw new InvalidMcpxPropertyException(property, "must be positive, not " + value);
		}
		return value;
	}

	/** The JDBC journal, with Spring Boot's JDBC module on the classpath. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(DataSourceScriptDatabaseInitializer.class)
	@ConditionalOnProperty(name = STORE, havingValue = "jdbc")
	static final class Jdbc {

		@Bean
		@ConditionalOnMissingBean
		TaskJournalSchemaInitializer mcpTaskJournalSchemaInitializer(ObjectProvider<DataSource> dataSource,
				McpxTasksProperties properties) {
			return new TaskJournalSchemaInitializer(required(dataSource), tableName(properties),
					properties.getJdbc().getInitializeSchema());
		}

		@Bean
		@ConditionalOnMissingBean
		McpTaskStore mcpTaskStore(ObjectProvider<DataSource> dataSource, McpxTasksProperties properties,
				ObjectProvider<TaskJournalSchemaInitializer> schema) {
			// asked for first, so the table exists before the journal is used
			schema.ifAvailable((initializer) -> {
			});
			return new JdbcMcpTaskStore(required(dataSource), tableName(properties),
					positive(properties.getLease(), "mcpx.tasks.lease"), properties.getJdbc().getEncryptionKey(), properties.isStoreArguments());
		}

		private static String tableName(McpxTasksProperties properties) {
			try {
				return JdbcMcpTaskStore.checkedTableName(properties.getJdbc().getTableName());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidMcpxPropertyException("mcpx.tasks.jdbc.table-name", String.valueOf(ex.getMessage()));
			}
		}

		private static DataSource required(ObjectProvider<DataSource> dataSource) {
			DataSource found = dataSource.getIfUnique();
			if (found == null) {
				throw new InvalidMcpxPropertyException(STORE,
						"jdbc needs one DataSource bean (spring-boot-starter-jdbc and spring.datasource.*), and there is none");
			}
			return found;
		}

	}

	/** {@code mcpx.tasks.store: jdbc} without Spring Boot's JDBC module: refused by name at startup. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingClass("org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer")
	@ConditionalOnProperty(name = STORE, havingValue = "jdbc")
	static final class JdbcMissing {

		@Bean
		McpTaskStore mcpTaskStore() {
			throw new InvalidMcpxPropertyException(STORE,
					"jdbc needs Spring Boot's JDBC module on the classpath (spring-boot-starter-jdbc) and a DataSource");
		}

	}

}
