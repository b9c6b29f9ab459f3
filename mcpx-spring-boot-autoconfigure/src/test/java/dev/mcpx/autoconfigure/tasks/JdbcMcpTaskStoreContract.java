package dev.mcpx.autoconfigure.tasks;

import java.time.Duration;
import java.util.Base64;
import java.util.Set;

import javax.sql.DataSource;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.McpTaskStoreContract;
import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.error.McpTaskStoreVersionException;
import dev.mcpx.client.model.McpTaskStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The JDBC journal keeps the {@link McpTaskStore} contract on a real database, and what only a database row shows:
 * the session id encrypted at rest, a configurable table, rows of a newer format refused, a failing database
 * reported as {@link McpTaskStoreException}. Each replica is a store of its own (another owner) on one database.
 */
abstract class JdbcMcpTaskStoreContract extends McpTaskStoreContract {

	static final String TABLE = "MCPX_TASKS_TEST";

	static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);

	static final String SESSION = "3f1e9c0a-5b7d-4c2e-9a61-0d8e7f6b5a43";

	protected abstract DataSource dataSource();

	protected abstract McpxTasksProperties.SchemaInitialization schemaMode();

	@BeforeEach
	void freshTable() throws Exception {
		JdbcClient.create(dataSource()).sql("DROP TABLE IF EXISTS " + TABLE).update();
		TaskJournalSchemaInitializer initializer = new TaskJournalSchemaInitializer(dataSource(), TABLE, schemaMode());
		assertThat(initializer.initializeDatabase()).as("the schema script ran").isTrue();
	}

	@Override
	protected McpTaskStore replica(Duration lease) {
		return new JdbcMcpTaskStore(dataSource(), TABLE, lease, KEY, true);
	}

	@Test
	void theSchemaScriptRunsAgainOnAJournalInUseAndChangesNothing() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		store.create(task(store, "t-1", T0));
		assertThat(new TaskJournalSchemaInitializer(dataSource(), TABLE, McpxTasksProperties.SchemaInitialization.ALWAYS)
			.initializeDatabase()).isTrue();
		assertThat(store.find("weather", "t-1")).isPresent();
	}

	@Test
	void theBoundSessionIdIsEncryptedAtRestAndReadBackOnlyWithTheKey() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		McpTaskRecord row = task(store, "t-1", T0)
			.withSession(new McpTaskRecord.BoundSession(SESSION, "2025-11-25", "{\"tasks\":{}}"));
		store.create(row);
		String stored = JdbcClient.create(dataSource())
			.sql("SELECT SESSION_ID FROM " + TABLE + " WHERE TASK_ID = 't-1'")
			.query(String.class)
			.single();
		assertThat(stored).startsWith("aesgcm1:").doesNotContain(SESSION).doesNotContain(SESSION.substring(0, 8));
		assertThat(store.find("weather", "t-1")).get().extracting(McpTaskRecord::session).isEqualTo(row.session());

		McpTaskStore otherKey = new JdbcMcpTaskStore(dataSource(), TABLE, Duration.ofSeconds(30),
				Base64.getEncoder().encodeToString(new byte[16]), true);
		assertThatExceptionOfType(McpTaskStoreException.class).isThrownBy(() -> otherKey.find("weather", "t-1"))
			.withMessageContaining("mcpx.tasks.jdbc.encryption-key")
			.withMessageNotContaining(SESSION.substring(0, 8));
		McpTaskStore noKey = new JdbcMcpTaskStore(dataSource(), TABLE, Duration.ofSeconds(30), null, true);
		assertThatExceptionOfType(McpTaskStoreException.class).isThrownBy(() -> noKey.find("weather", "t-1"))
			.withMessageContaining("is not set");
	}

	@Test
	void withoutAKeyTheSessionIdIsKeptInClearAndReadBackOnceAKeyIsSet() {
		McpTaskStore plain = new JdbcMcpTaskStore(dataSource(), TABLE, Duration.ofSeconds(30), null, true);
		McpTaskRecord row = task(plain, "t-1", T0)
			.withSession(new McpTaskRecord.BoundSession(SESSION, "2025-11-25", "{}"));
		plain.create(row);
		assertThat(JdbcClient.create(dataSource()).sql("SELECT SESSION_ID FROM " + TABLE).query(String.class).single())
			.isEqualTo(SESSION);
		assertThat(replica(Duration.ofSeconds(30)).find("weather", "t-1")).get()
			.extracting(McpTaskRecord::session)
			.isEqualTo(row.session());
	}

	@Test
	void anEncryptedSessionIdCopiedIntoAnotherRowDoesNotDecrypt() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		store.create(task(store, "t-1", T0).withSession(new McpTaskRecord.BoundSession(SESSION, "2025-11-25", "{}")));
		store.create(task(store, "t-2", T0).withSession(new McpTaskRecord.BoundSession("other-session-id-0000",
				"2025-11-25", "{}")));
		JdbcClient jdbc = JdbcClient.create(dataSource());
		String sealed = jdbc.sql("SELECT SESSION_ID FROM " + TABLE + " WHERE TASK_ID = 't-1'").query(String.class).single();
		jdbc.sql("UPDATE " + TABLE + " SET SESSION_ID = ? WHERE TASK_ID = 't-2'").param(sealed).update();
		assertThatExceptionOfType(McpTaskStoreException.class).isThrownBy(() -> store.find("weather", "t-2"))
			.withMessageContaining("does not decrypt");
	}

	@Test
	void withoutStoreArgumentsOnlyTheHashOfTheArgumentsIsWritten() {
		McpTaskStore hashOnly = new JdbcMcpTaskStore(dataSource(), TABLE, Duration.ofSeconds(30), KEY, false);
		McpTaskRecord row = task(hashOnly, "t-1", T0).withArguments("{\"city\":\"Oslo\"}");
		hashOnly.create(row);
		assertThat(hashOnly.update(row.withStatus(McpTaskStatus.WORKING, "still", T0.plusSeconds(1)))).isTrue();
		assertThat(JdbcClient.create(dataSource())
			.sql("SELECT COUNT(*) FROM " + TABLE + " WHERE ARGUMENTS IS NULL AND ARGUMENTS_HASH = ?")
			.param(McpTaskRecord.argumentsHash("{\"city\":\"Oslo\"}"))
			.query(Integer.class)
			.single()).isOne();
	}

	@Test
	void aRowOfANewerFormatIsRefusedByKeyAndNeverClaimed() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		store.create(task(store, "t-9", T0));
		JdbcClient.create(dataSource())
			.sql("UPDATE " + TABLE + " SET FORMAT_VERSION = ?, OWNER = NULL, LEASE_EXPIRES_AT = NULL")
			.param(McpTaskStore.FORMAT_VERSION + 1)
			.update();
		assertThatExceptionOfType(McpTaskStoreVersionException.class).isThrownBy(() -> store.find("weather", "t-9"))
			.satisfies((ex) -> assertThat(ex.rowVersion()).isEqualTo(McpTaskStore.FORMAT_VERSION + 1));
		assertThat(store.claim(Set.of("weather"), T0.plusSeconds(3600), 10)).isEmpty();
		assertThat(store.unfinished("weather")).isEmpty();
	}

	@Test
	void aTableNameThatIsNoPlainIdentifierIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new JdbcMcpTaskStore(dataSource(), "T; DROP TABLE X", Duration.ofSeconds(30), null, true))
			.withMessageContaining("plain SQL identifier");
	}

	@Test
	void anEncryptionKeyThatIsNoAesKeyIsRefusedByItsProperty() {
		assertThatExceptionOfType(InvalidMcpxPropertyException.class)
			.isThrownBy(() -> new JdbcMcpTaskStore(dataSource(), TABLE, Duration.ofSeconds(30), "c2hvcnQ=", true))
			.satisfies((ex) -> assertThat(ex.property()).isEqualTo("mcpx.tasks.jdbc.encryption-key"));
	}

	@Test
	void aJournalWhoseTableIsGoneFailsWithATypedErrorNamingTheOperation() {
		McpTaskStore store = new JdbcMcpTaskStore(dataSource(), "MCPX_NO_SUCH_TABLE", Duration.ofSeconds(30), null, true);
		assertThatExceptionOfType(McpTaskStoreException.class).isThrownBy(() -> store.create(task(store, "t-1", T0)))
			.withMessageContaining("create task t-1")
			.satisfies((ex) -> assertThat(ex.upstream()).isEqualTo("weather"));
		assertThatExceptionOfType(McpTaskStoreException.class)
			.isThrownBy(() -> store.claim(Set.of("weather"), T0, 10))
			.withMessageContaining("claim");
	}

}
