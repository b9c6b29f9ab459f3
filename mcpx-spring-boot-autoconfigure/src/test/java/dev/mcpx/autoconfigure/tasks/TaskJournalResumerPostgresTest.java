package dev.mcpx.autoconfigure.tasks;

import javax.sql.DataSource;

import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.testsupport.EmbeddedPostgresDatabase;

/**
 * Resumption of orphaned tasks by replicas sharing a real PostgreSQL journal ({@link EmbeddedPostgresDatabase};
 * claims by {@code SKIP LOCKED}).
 */
class TaskJournalResumerPostgresTest extends TaskJournalResumerContract {

	@RegisterExtension
	static final EmbeddedPostgresDatabase postgres = new EmbeddedPostgresDatabase();

	@Override
	protected DataSource dataSource() {
		return postgres.dataSource();
	}

}
