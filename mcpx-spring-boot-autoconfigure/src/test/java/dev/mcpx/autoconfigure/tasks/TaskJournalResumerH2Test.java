package dev.mcpx.autoconfigure.tasks;

import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * Resumption of orphaned tasks by replicas sharing an H2 journal (claims by a compare-and-set of the lease).
 */
class TaskJournalResumerH2Test extends TaskJournalResumerContract {

	private final DataSource dataSource = new SimpleDriverDataSource(new org.h2.Driver(),
			"jdbc:h2:mem:resume-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");

	@Override
	protected DataSource dataSource() {
		return this.dataSource;
	}

}
