package dev.mcpx.autoconfigure.tasks;

import java.io.IOException;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Resumption of orphaned tasks by replicas sharing a real PostgreSQL journal (claims by {@code SKIP LOCKED}).
 */
class TaskJournalResumerPostgresTest extends TaskJournalResumerContract {

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

}
