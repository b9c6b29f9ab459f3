package dev.mcpx.autoconfigure.tasks;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.client.InMemoryMcpTaskStore;
import dev.mcpx.client.McpTaskStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which task journal an application gets from {@code mcpx.tasks.*}, and how a bad setting is refused by name.
 */
class McpxTasksAutoConfigurationTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, McpxTasksAutoConfiguration.class))
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:tasks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

	@Test
	void whenNothingIsSetTheJournalIsInMemoryWithTheDefaultLease() {
		this.contextRunner.run((context) -> {
			assertThat(context).getBean(McpTaskStore.class).isInstanceOf(InMemoryMcpTaskStore.class);
			assertThat(context.getBean(McpTaskStore.class).lease()).isEqualTo(McpTaskStore.DEFAULT_LEASE);
			assertThat(context).doesNotHaveBean(TaskJournalSchemaInitializer.class);
		});
	}

	@Test
	void whenTheStoreIsJdbcTheJournalIsInTheDataSourceAndItsTableIsCreatedOnAnEmbeddedDatabase() {
		this.contextRunner.withPropertyValues("mcpx.tasks.store=jdbc", "mcpx.tasks.lease=45s").run((context) -> {
			McpTaskStore store = context.getBean(McpTaskStore.class);
			assertThat(store).isInstanceOf(JdbcMcpTaskStore.class);
			assertThat(store.lease()).isEqualTo(Duration.ofSeconds(45));
			assertThat(JdbcClient.create(context.getBean(javax.sql.DataSource.class))
				.sql("SELECT COUNT(*) FROM MCPX_TASKS")
				.query(Integer.class)
				.single()).isZero();
		});
	}

	@Test
	void whenTheTableNameIsSetTheScriptCreatesThatTable() {
		this.contextRunner.withPropertyValues("mcpx.tasks.store=jdbc", "mcpx.tasks.jdbc.table-name=APP_TASK_JOURNAL")
			.run((context) -> assertThat(JdbcClient.create(context.getBean(javax.sql.DataSource.class))
				.sql("SELECT COUNT(*) FROM APP_TASK_JOURNAL")
				.query(Integer.class)
				.single()).isZero());
	}

	@Test
	void whenSchemaInitializationIsNeverNoTableIsCreated() {
		this.contextRunner.withPropertyValues("mcpx.tasks.store=jdbc", "mcpx.tasks.jdbc.initialize-schema=never")
			.run((context) -> {
				assertThat(context).hasSingleBean(McpTaskStore.class);
				assertThat(JdbcClient.create(context.getBean(javax.sql.DataSource.class))
					.sql("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = 'MCPX_TASKS'")
					.query(Integer.class)
					.single()).isZero();
			});
	}

	@Test
	void whenTheStoreIsJdbcWithoutADataSourceStartupFailsNamingTheProperty() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpxTasksAutoConfiguration.class))
			.withPropertyValues("mcpx.tasks.store=jdbc")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.isInstanceOf(InvalidMcpxPropertyException.class)
					.hasMessageContaining("mcpx.tasks.store")
					.hasMessageContaining("DataSource");
			});
	}

	@Test
	void whenTheStoreIsJdbcWithoutSpringBootsJdbcModuleStartupFailsNamingTheProperty() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpxTasksAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.jdbc"))
			.withPropertyValues("mcpx.tasks.store=jdbc")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("mcpx.tasks.store")
					.hasMessageContaining("spring-boot-starter-jdbc");
			});
	}

	@Test
	void aBadTableNameLeaseOrKeyFailsStartupNamingItsProperty() {
		this.contextRunner.withPropertyValues("mcpx.tasks.store=jdbc", "mcpx.tasks.jdbc.initialize-schema=never",
				"mcpx.tasks.jdbc.table-name=tasks;drop")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("mcpx.tasks.jdbc.table-name"));
		this.contextRunner.withPropertyValues("mcpx.tasks.lease=0s")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("mcpx.tasks.lease"));
		this.contextRunner.withPropertyValues("mcpx.tasks.store=jdbc", "mcpx.tasks.jdbc.encryption-key=not-a-key!")
			.run((context) -> assertThat(context.getStartupFailure()).rootCause()
				.hasMessageContaining("mcpx.tasks.jdbc.encryption-key")
				.hasMessageNotContaining("not-a-key"));
	}

	@Test
	void anApplicationsOwnJournalWins() {
		McpTaskStore own = McpTaskStore.inMemory();
		this.contextRunner.withPropertyValues("mcpx.tasks.store=jdbc")
			.withBean(McpTaskStore.class, () -> own)
			.run((context) -> assertThat(context).getBean(McpTaskStore.class).isSameAs(own));
	}

}
