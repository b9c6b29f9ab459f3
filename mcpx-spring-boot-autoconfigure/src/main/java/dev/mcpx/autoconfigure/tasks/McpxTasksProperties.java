package dev.mcpx.autoconfigure.tasks;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where tasks are journalled and how the journal is shared ({@code mcpx.tasks.*}); see {@code McpTaskStore}.
 */
@ConfigurationProperties("mcpx.tasks")
public class McpxTasksProperties {

	/**
	 * Where tasks are journalled: in memory (they survive broken streams and expired sessions) or in the
	 * application's database (they survive the application's restart too, and replicas share them).
	 */
	private Store store = Store.MEMORY;

	/**
	 * Whether a task's arguments are journalled in clear, not only their SHA-256.
	 */
	private boolean storeArguments = false;

	/**
	 * How long a process holds a task it follows without renewing its lease; another replica takes up a task whose
	 * lease has passed.
	 */
	private Duration lease = Duration.ofSeconds(30);

	/**
	 * How often unfinished tasks that no process holds are looked for and taken up, besides at startup.
	 */
	private Duration resumeInterval = Duration.ofSeconds(10);

	/**
	 * The JDBC journal.
	 */
	private final Jdbc jdbc = new Jdbc();

	public Store getStore() {
		return this.store;
	}

	public void setStore(Store store) {
		this.store = store;
	}

	public boolean isStoreArguments() {
		return this.storeArguments;
	}

	public void setStoreArguments(boolean storeArguments) {
		this.storeArguments = storeArguments;
	}

	public Duration getLease() {
		return this.lease;
	}

	public void setLease(Duration lease) {
		this.lease = lease;
	}

	public Duration getResumeInterval() {
		return this.resumeInterval;
	}

	public void setResumeInterval(Duration resumeInterval) {
		this.resumeInterval = resumeInterval;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	/**
	 * Where tasks are journalled.
	 */
	public enum Store {

		/** In memory, for one run of the application. */
		MEMORY,

		/** In the application's {@code DataSource}, through Spring's {@code JdbcClient}. */
		JDBC

	}

	/**
	 * When the journal's schema script is run, as Spring Boot's {@code DatabaseInitializationMode} says (this copy
	 * keeps the properties free of Spring Boot's SQL module, which only the JDBC journal needs).
	 */
	public enum SchemaInitialization {

		/** Only on an embedded database (H2, HSQLDB, Derby). */
		EMBEDDED,

		/** On any database. */
		ALWAYS,

		/** Never: the application creates the table. */
		NEVER

	}

	/**
	 * The JDBC journal ({@code mcpx.tasks.store: jdbc}).
	 */
	public static class Jdbc {

		/**
		 * The journal's table: a plain SQL identifier (letters, digits, underscores).
		 */
		private String tableName = "MCPX_TASKS";

		/**
		 * When the journal's schema script (H2 or PostgreSQL, in the jar) is run: on an embedded database only,
		 * always, or never (the application creates the table itself).
		 */
		private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

		/**
		 * Base64 of a 128, 192 or 256-bit AES key; when set, the session id a task is bound to is encrypted at rest
		 * (AES-GCM).
		 */
		private @Nullable String encryptionKey;

		public String getTableName() {
			return this.tableName;
		}

		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		public SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public @Nullable String getEncryptionKey() {
			return this.encryptionKey;
		}

		public void setEncryptionKey(@Nullable String encryptionKey) {
			this.encryptionKey = encryptionKey;
		}

	}

}
