package dev.mcpx.autoconfigure.tasks;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceUtils;

import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.error.McpTaskStoreVersionException;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;

/**
 * The task journal in a relational database, through Spring's {@link JdbcClient} ({@code mcpx.tasks.store: jdbc}):
 * one row per task in one table (schema scripts for H2 and PostgreSQL in the jar), shared by every replica of the
 * application. Times are kept to the millisecond.
 * <p>
 * Only the holder of a row writes it: every update is conditioned on the owner and on the row being unfinished. An
 * orphan is claimed atomically: on PostgreSQL by one {@code UPDATE ... WHERE ... IN (SELECT ... FOR UPDATE SKIP
 * LOCKED) RETURNING}, elsewhere by a compare-and-set of each candidate's lease ({@code UPDATE ... WHERE owner and
 * lease are still what was read}), so two replicas never both take one row.
 * <p>
 * A failure of the database becomes an {@link McpTaskStoreException} whose message names the operation and the
 * task, never a value of the row.
 */
public final class JdbcMcpTaskStore implements McpTaskStore {

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,49}");

	private static final String NAME = "task-journal";

	private static final String UNFINISHED = "('working', 'input_required')";

	private static final String COLUMNS = "UPSTREAM, TASK_ID, FORMAT_VERSION, TOOL, ERA, STATUS, STATUS_MESSAGE, "
			+ "ARGUMENTS_HASH, ARGUMENTS, CREATED_AT, UPDATED_AT, TTL_MS, POLL_INTERVAL_MS, SESSION_ID, "
			+ "PROTOCOL_VERSION, SERVER_CAPABILITIES, OWNER, LEASE_EXPIRES_AT, OUTCOME";

	private final JdbcClient jdbc;

	private final DataSource dataSource;

	private final String table;

	private final Duration lease;

	private final SessionIdCipher cipher;

	private final String owner;

	private final boolean storeArguments;

	private volatile @Nullable Boolean postgres;

	/**
	 * Creates a journal on a table that exists (see the schema scripts, or {@code mcpx.tasks.jdbc.initialize-schema}).
	 * @param dataSource the database
	 * @param tableName the table: a plain SQL identifier of at most 50 characters
	 * @param lease how long a lease lasts from its last renewal
	 * @param encryptionKey base64 of an AES key (16, 24 or 32 bytes) to encrypt the bound session id at rest, or
	 * null to keep it in clear
	 * @param storeArguments whether a task's arguments are written in clear; when false only their hash is, whatever
	 * the row says
	 * @throws IllegalArgumentException naming the problem, for a table name that is not a plain identifier or a lease
	 * that is not positive
	 * @throws dev.mcpx.autoconfigure.InvalidMcpxPropertyException for a key that is not base64 of an AES key
	 */
	public JdbcMcpTaskStore(DataSource dataSource, String tableName, Duration lease, @Nullable String encryptionKey,
			boolean storeArguments) {
		this.table = checkedTableName(tableName);
		if (lease.isNegative() || lease.isZero()) {
			throw new IllegalArgumentException("The task lease must be positive, not " + lease);
		}
		this.dataSource = dataSource;
		this.jdbc = JdbcClient.create(dataSource);
		this.lease = lease;
		this.cipher = SessionIdCipher.of(encryptionKey);
		this.owner = newOwner();
		this.storeArguments = storeArguments;
	}

	static String checkedTableName(String tableName) {
		if (!IDENTIFIER.matcher(tableName).matches()) {
			throw new IllegalArgumentException("The task journal's table name must be a plain SQL identifier "
					+ "(letters, digits, underscores, at most 50), not '" + tableName + "'");
		}
		return tableName;
	}

	/** A process id and a random part: tells replicas apart, names no host or user. */
	private static String newOwner() {
		byte[] random = new byte[6];
		new java.security.SecureRandom().nextBytes(random);
		return "mcpx-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random);
	}

	@Override
	public String owner() {
		return this.owner;
	}

	@Override
	public Duration lease() {
		return this.lease;
	}

	@Override
	public void create(McpTaskRecord task) {
		Sealed session = seal(task);
		guarded("create", task.upstream(), task.taskId(), () -> {
			try {
				return this.jdbc.sql("INSERT INTO " + this.table + " (" + COLUMNS + ") VALUES "
						+ "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
					.params(values(task.upstream(), task.taskId(), task.formatVersion(), task.tool(), task.era().name(),
							task.status().wireName(), task.statusMessage(), task.argumentsHash(), arguments(task),
							task.createdAt().toEpochMilli(), task.updatedAt().toEpochMilli(), millis(task.ttl()),
							millis(task.pollInterval()), session.id(), session.version(), session.capabilities(),
							task.owner(), millis(task.leaseExpiresAt()), task.outcome()))
					.update();
			}
			catch (DuplicateKeyException ex) {
				throw new McpTaskStoreException(task.upstream(), "Task " + task.taskId() + " is journalled already",
						null);
			}
		});
	}

	@Override
	public boolean update(McpTaskRecord task) {
		Sealed session = seal(task);
		return guarded("update", task.upstream(), task.taskId(), () -> this.jdbc
			.sql("UPDATE " + this.table + " SET STATUS = ?, STATUS_MESSAGE = ?, ARGUMENTS = ?, UPDATED_AT = ?, "
					+ "TTL_MS = ?, POLL_INTERVAL_MS = ?, SESSION_ID = ?, PROTOCOL_VERSION = ?, SERVER_CAPABILITIES = ?, "
					+ "OWNER = ?, LEASE_EXPIRES_AT = ?, OUTCOME = ? WHERE UPSTREAM = ? AND TASK_ID = ? AND OWNER = ? "
					+ "AND STATUS IN " + UNFINISHED)
			.params(values(task.status().wireName(), task.statusMessage(), arguments(task), task.updatedAt().toEpochMilli(),
					millis(task.ttl()), millis(task.pollInterval()), session.id(), session.version(),
					session.capabilities(), task.owner(), millis(task.leaseExpiresAt()), task.outcome(),
					task.upstream(), task.taskId(), this.owner))
			.update()) == 1;
	}

	@Override
	public boolean renew(String upstream, String taskId, Instant now) {
		return guarded("renew", upstream, taskId, () -> this.jdbc
			.sql("UPDATE " + this.table + " SET LEASE_EXPIRES_AT = ? WHERE UPSTREAM = ? AND TASK_ID = ? AND OWNER = ? "
					+ "AND STATUS IN " + UNFINISHED)
			.params(now.plus(this.lease).toEpochMilli(), upstream, taskId, this.owner)
			.update()) == 1;
	}

	@Override
	public void release(String upstream, String taskId) {
		guarded("release", upstream, taskId, () -> this.jdbc
			.sql("UPDATE " + this.table + " SET OWNER = NULL, LEASE_EXPIRES_AT = NULL WHERE UPSTREAM = ? "
					+ "AND TASK_ID = ? AND OWNER = ? AND STATUS IN " + UNFINISHED)
			.params(upstream, taskId, this.owner)
			.update());
	}

	@Override
	public List<McpTaskRecord> claim(Collection<String> upstreams, Instant now, int limit) {
		if (upstreams.isEmpty() || limit <= 0) {
			return List.of();
		}
		String candidates = "STATUS IN " + UNFINISHED + " AND FORMAT_VERSION <= " + FORMAT_VERSION
				+ " AND (LEASE_EXPIRES_AT IS NULL OR LEASE_EXPIRES_AT < :now) AND UPSTREAM IN (:upstreams)";
		long until = now.plus(this.lease).toEpochMilli();
		return guarded("claim", NAME, null, () -> {
			if (isPostgres()) {
				return this.jdbc
					.sql("UPDATE " + this.table + " SET OWNER = :owner, LEASE_EXPIRES_AT = :until WHERE (UPSTREAM, "
							+ "TASK_ID) IN (SELECT UPSTREAM, TASK_ID FROM " + this.table + " WHERE " + candidates
							+ " ORDER BY CREATED_AT LIMIT :limit FOR UPDATE SKIP LOCKED) RETURNING " + COLUMNS)
					.param("owner", this.owner)
					.param("until", until)
					.param("now", now.toEpochMilli())
					.param("upstreams", List.copyOf(upstreams))
					.param("limit", limit)
					.query(this::row)
					.list();
			}
			List<Lease> seen = this.jdbc
				.sql("SELECT UPSTREAM, TASK_ID, OWNER, LEASE_EXPIRES_AT FROM " + this.table + " WHERE " + candidates
						+ " ORDER BY CREATED_AT LIMIT :limit")
				.param("now", now.toEpochMilli())
				.param("upstreams", List.copyOf(upstreams))
				.param("limit", limit)
				.query((rs, n) -> new Lease(rs.getString(1), rs.getString(2), rs.getString(3), nullableLong(rs, 4)))
				.list();
			List<McpTaskRecord> claimed = new ArrayList<>();
			for (Lease candidate : seen) {
				// compare-and-set: taken only if nobody took it since it was read
				int taken = this.jdbc
					.sql("UPDATE " + this.table + " SET OWNER = ?, LEASE_EXPIRES_AT = ? WHERE UPSTREAM = ? AND "
							+ "TASK_ID = ? AND STATUS IN " + UNFINISHED + " AND COALESCE(OWNER, '') = ? AND "
							+ "COALESCE(LEASE_EXPIRES_AT, -1) = ?")
					.params(this.owner, until, candidate.upstream(), candidate.taskId(),
							(candidate.owner() != null) ? candidate.owner() : "",
							(candidate.expires() != null) ? candidate.expires() : -1L)
					.update();
				if (taken == 1) {
					selectRow(candidate.upstream(), candidate.taskId()).ifPresent(claimed::add);
				}
			}
			return claimed;
		});
	}

	@Override
	public Optional<McpTaskRecord> find(String upstream, String taskId) {
		Optional<McpTaskRecord> row = guarded("find", upstream, taskId, () -> selectRow(upstream, taskId));
		row.ifPresent((task) -> {
			if (task.formatVersion() > FORMAT_VERSION) {
				throw new McpTaskStoreVersionException(upstream, taskId, task.formatVersion(), FORMAT_VERSION);
			}
		});
		return row;
	}

	@Override
	public List<McpTaskRecord> unfinished(String upstream) {
		return guarded("unfinished", upstream, null, () -> this.jdbc
			.sql("SELECT " + COLUMNS + " FROM " + this.table + " WHERE UPSTREAM = ? AND STATUS IN " + UNFINISHED
					+ " AND FORMAT_VERSION <= " + FORMAT_VERSION + " ORDER BY CREATED_AT")
			.param(upstream)
			.query(this::row)
			.list());
	}

	@Override
	public int purge(Instant endedBefore) {
		return guarded("purge", NAME, null, () -> this.jdbc
			.sql("DELETE FROM " + this.table + " WHERE STATUS NOT IN " + UNFINISHED + " AND UPDATED_AT < ?")
			.param(endedBefore.toEpochMilli())
			.update());
	}

	private Optional<McpTaskRecord> selectRow(String upstream, String taskId) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM " + this.table + " WHERE UPSTREAM = ? AND TASK_ID = ?")
			.params(upstream, taskId)
			.query(this::row)
			.optional();
	}

	private McpTaskRecord row(ResultSet rs, int rowNum) throws SQLException {
		String upstream = rs.getString("UPSTREAM");
		String taskId = rs.getString("TASK_ID");
		int version = rs.getInt("FORMAT_VERSION");
		if (version > FORMAT_VERSION) {
			// a newer version's row: only its keys are known to mean what they mean here
			throw new McpTaskStoreVersionException(upstream, taskId, version, FORMAT_VERSION);
		}
		String sealed = rs.getString("SESSION_ID");
		McpTaskRecord.BoundSession session = null;
		if (sealed != null) {
			String sessionId;
			try {
				sessionId = this.cipher.open(sealed, upstream, taskId);
			}
			catch (IllegalStateException ex) {
				throw new McpTaskStoreException(upstream, "Task " + taskId + ": " + ex.getMessage(), null);
			}
			session = new McpTaskRecord.BoundSession(sessionId, required(rs, "PROTOCOL_VERSION", taskId),
					required(rs, "SERVER_CAPABILITIES", taskId));
		}
		McpTaskStatus status;
		ProtocolEra era;
		try {
			status = McpTaskStatus.ofWireName(required(rs, "STATUS", taskId));
			era = ProtocolEra.valueOf(required(rs, "ERA", taskId));
		}
		catch (IllegalArgumentException ex) {
			throw new McpTaskStoreException(upstream, "Task " + taskId + " has a row this version cannot read: "
					+ ex.getMessage(), null);
		}
		return new McpTaskRecord(version, upstream, taskId, required(rs, "TOOL", taskId), era, status,
				rs.getString("STATUS_MESSAGE"), required(rs, "ARGUMENTS_HASH", taskId), rs.getString("ARGUMENTS"),
				instant(rs.getLong("CREATED_AT")), instant(rs.getLong("UPDATED_AT")), duration(rs, "TTL_MS"),
				duration(rs, "POLL_INTERVAL_MS"), session, rs.getString("OWNER"),
				instantOrNull(nullableLong(rs, "LEASE_EXPIRES_AT")), rs.getString("OUTCOME"));
	}

	private @Nullable String arguments(McpTaskRecord task) {
		return this.storeArguments ? task.arguments() : null;
	}

	private Sealed seal(McpTaskRecord task) {
		McpTaskRecord.BoundSession session = task.session();
		if (session == null) {
			return new Sealed(null, null, null);
		}
		return new Sealed(this.cipher.seal(session.sessionId(), task.upstream(), task.taskId()),
				session.protocolVersion(), session.serverCapabilities());
	}

	private boolean isPostgres() {
		Boolean known = this.postgres;
		if (known == null) {
			Connection connection = DataSourceUtils.getConnection(this.dataSource);
			try {
				known = connection.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
			}
			catch (SQLException ex) {
				throw new McpTaskStoreException(NAME, "The task journal's database could not be identified", ex);
			}
			finally {
				DataSourceUtils.releaseConnection(connection, this.dataSource);
			}
			this.postgres = known;
		}
		return known;
	}

	private <T> T guarded(String operation, String upstream, @Nullable String taskId, Supplier<T> work) {
		try {
			return work.get();
		}
		catch (DataAccessException ex) {
			throw new McpTaskStoreException(upstream, "The task journal (table " + this.table + ") failed to "
					+ operation + ((taskId != null) ? " task " + taskId : "") + ": "
					+ ex.getClass().getSimpleName(), ex);
		}
	}

	private static String required(ResultSet rs, String column, String taskId) throws SQLException {
		String value = rs.getString(column);
		if (value == null) {
			throw new McpTaskStoreException(NAME, "Task " + taskId + " has no " + column, null);
		}
		return value;
	}

	private static @Nullable Long nullableLong(ResultSet rs, String column) throws SQLException {
		long value = rs.getLong(column);
		return rs.wasNull() ? null : value;
	}

	private static @Nullable Long nullableLong(ResultSet rs, int column) throws SQLException {
		long value = rs.getLong(column);
		return rs.wasNull() ? null : value;
	}

	/** Positional parameters, some of them SQL NULL. */
	private static List<@Nullable Object> values(@Nullable Object... values) {
		return Arrays.asList(values);
	}

	private static @Nullable Duration duration(ResultSet rs, String column) throws SQLException {
		Long value = nullableLong(rs, column);
		return (value != null) ? Duration.ofMillis(value) : null;
	}

	private static Instant instant(long millis) {
		return Instant.ofEpochMilli(millis);
	}

	private static @Nullable Instant instantOrNull(@Nullable Long millis) {
		return (millis != null) ? Instant.ofEpochMilli(millis) : null;
	}

	private static @Nullable Long millis(@Nullable Duration duration) {
		return (duration != null) ? duration.toMillis() : null;
	}

	private static @Nullable Long millis(@Nullable Instant instant) {
		return (instant != null) ? instant.toEpochMilli() : null;
	}

	private record Lease(String upstream, String taskId, @Nullable String owner, @Nullable Long expires) {
	}

	private record Sealed(@Nullable String id, @Nullable String version, @Nullable String capabilities) {
	}

}
