package dev.mcpx.autoconfigure.tasks;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The JDBC journal on H2 (the embedded database of the sample app), with the generic compare-and-set claim.
 */
class JdbcMcpTaskStoreH2Test extends JdbcMcpTaskStoreContract {

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:journal-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");

	@Override
	protected DataSource dataSource() {
		return this.dataSource;
	}

	@Override
	protected McpxTasksProperties.SchemaInitialization schemaMode() {
		return McpxTasksProperties.SchemaInitialization.EMBEDDED;
	}

}
