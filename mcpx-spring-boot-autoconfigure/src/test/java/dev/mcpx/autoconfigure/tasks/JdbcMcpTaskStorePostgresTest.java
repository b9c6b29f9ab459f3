package dev.mcpx.autoconfigure.tasks;

import javax.sql.DataSource;

import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.testsupport.EmbeddedPostgresDatabase;

/**
 * The JDBC journal on a real PostgreSQL ({@link EmbeddedPostgresDatabase}), with the claim by
 * {@code FOR UPDATE SKIP LOCKED}. Not an embedded database to Spring Boot, so its schema is initialized with
 * {@code always}.
 */
class JdbcMcpTaskStorePostgresTest extends JdbcMcpTaskStoreContract {

	@RegisterExtension
	static final EmbeddedPostgresDatabase postgres = new EmbeddedPostgresDatabase();

	@Override
	protected DataSource dataSource() {
		return postgres.dataSource();
	}

	@Override
	protected McpxTasksProperties.SchemaInitialization schemaMode() {
		return McpxTasksProperties.SchemaInitialization.ALWAYS;
	}

}
