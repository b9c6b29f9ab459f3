package dev.mcpx.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;

/**
 * One row of a task journal ({@link McpTaskStore}): what a process needs to follow a task to its outcome after the
 * process that started it is gone. Immutable; change it with the {@code with*} methods. Keyed by
 * {@code (upstream, taskId)}: task ids are unique across their receiver (2025-11-25 basic/utilities/tasks §Task
 * Creation, rule 1).
 * <p>
 * What it never holds: a token, a header value, the arguments in clear unless the application asked for it
 * ({@code mcpx.tasks.store-arguments}). The one secret is the legacy session a 2025-11-25 task is bound to
 * ({@link BoundSession}), which never leaves the journal: {@link #toString()} and {@link BoundSession#toString()}
 * show it redacted, and a JDBC journal can encrypt it at rest (docs/security.md, "The task journal").
 *
 * @param formatVersion the format the row was written in ({@link McpTaskStore#FORMAT_VERSION} for rows this version
 * writes); a store refuses a newer one with {@link dev.mcpx.client.error.McpTaskStoreVersionException}
 * @param upstream the upstream name, as under {@code mcpx.clients}
 * @param taskId the task id the server assigned
 * @param tool the tool called
 * @param era the era the task was created in: a legacy task is polled with {@code tasks/get} and
 * {@code tasks/result} in its session, a modern one with {@code tasks/get} alone
 * @param status the last status seen
 * @param statusMessage the last status message seen, if the server sent one
 * @param argumentsHash the SHA-256 of the arguments as sent ({@link #argumentsHash(byte[])}), so a task can be told
 * apart from another call of the same tool without its arguments being stored
 * @param arguments the arguments as sent (JSON), only when the application stores them; otherwise null
 * @param createdAt when the task was created (the server's {@code createdAt}, or when its id arrived)
 * @param updatedAt when this row last changed
 * @param ttl the task's lifetime from its creation as the server granted it; null when unlimited
 * @param pollInterval the poll interval the server suggested, if any
 * @param session for a legacy task bound to its session, that session; null for a modern task
 * @param owner the process following the task (a lease holder), null when none holds it
 * @param leaseExpiresAt until when the owner holds it; a task whose lease has passed may be claimed by another
 * @param outcome when terminal: the JSON of the answer to {@code tasks/result} (the result object, or
 * {@code {"error":{...}}} for a JSON-RPC error); for a modern task the result or error {@code tasks/get} carried;
 * null while the task runs and for a lost one
 */
public record McpTaskRecord(int formatVersion, String upstream, String taskId, String tool, ProtocolEra era,
		McpTaskStatus status, @Nullable String statusMessage, String argumentsHash, @Nullable String arguments,
		Instant createdAt, Instant updatedAt, @Nullable Duration ttl, @Nullable Duration pollInterval,
		@Nullable BoundSession session, @Nullable String owner, @Nullable Instant leaseExpiresAt,
		@Nullable String outcome) {

	/**
	 * A row, checked: every key present, a lease with its owner.
	 */
	public McpTaskRecord {
		Objects.requireNonNull(upstream, "upstream");
		Objects.requireNonNull(taskId, "taskId");
		Objects.requireNonNull(tool, "tool");
		Objects.requireNonNull(era, "era");
		Objects.requireNonNull(status, "status");
		Objects.requireNonNull(argumentsHash, "argumentsHash");
		Objects.requireNonNull(createdAt, "createdAt");
		Objects.requireNonNull(updatedAt, "updatedAt");
		if (taskId.isEmpty()) {
			throw new IllegalArgumentException("A task id must not be empty");
		}
		if ((owner == null) != (leaseExpiresAt == null)) {
			throw new IllegalArgumentException("A lease needs both its owner and its expiry");
		}
	}

	/**
	 * The row written when a task's id arrives, in this version's format, held by its creator.
	 * @param upstream the upstream name
	 * @param taskId the task id
	 * @param tool the tool called
	 * @param era the era of the task
	 * @param status the status the server created it with
	 * @param argumentsHash the hash of the arguments ({@link #argumentsHash(byte[])})
	 * @param createdAt when the task was created
	 * @param owner the creating process ({@link McpTaskStore#owner()})
	 * @param leaseExpiresAt until when the creator holds it
	 * @return the row, with no message, arguments, TTL, poll interval, session or outcome yet
	 */
	public static McpTaskRecord created(String upstream, String taskId, String tool, ProtocolEra era,
			McpTaskStatus status, String argumentsHash, Instant createdAt, String owner, Instant leaseExpiresAt) {
		return new McpTaskRecord(McpTaskStore.FORMAT_VERSION, upstream, taskId, tool, era, status, null,
				argumentsHash, null, createdAt, createdAt, null, null, null, owner, leaseExpiresAt, null);
	}

	/**
	 * The SHA-256 of a tool call's arguments, as the JSON sent.
	 * @param json the arguments' JSON bytes
	 * @return the hash, as 64 lower-case hex digits
	 */
	public static String argumentsHash(byte[] json) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json));
		}
		catch (NoSuchAlgorithmException ex) {
			// every Java platform must provide SHA-256 (MessageDigest's Javadoc)
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The SHA-256 of a tool call's arguments, as the JSON text sent.
	 * @param json the arguments' JSON
	 * @return the hash, as 64 lower-case hex digits
	 */
	public static String argumentsHash(String json) {
		return argumentsHash(json.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * This row after a status change.
	 * @param status the new status
	 * @param statusMessage the new status message, if any
	 * @param at when it changed
	 * @return the changed row
	 */
	public McpTaskRecord withStatus(McpTaskStatus status, @Nullable String statusMessage, Instant at) {
		return new McpTaskRecord(this.formatVersion, this.upstream, this.taskId, this.tool, this.era, status,
				statusMessage, this.argumentsHash, this.arguments, this.createdAt, at, this.ttl, this.pollInterval,
				this.session, this.owner, this.leaseExpiresAt, this.outcome);
	}

	/**
	 * This row with the task's timing, as the server last stated it.
	 * @param ttl the granted lifetime, null when unlimited
	 * @param pollInterval the suggested poll interval, if any
	 * @return the changed row
	 */
	public McpTaskRecord withTiming(@Nullable Duration ttl, @Nullable Duration pollInterval) {
		return new McpTaskRecord(this.formatVersion, this.upstream, this.taskId, this.tool, this.era, this.status,
				this.statusMessage, this.argumentsHash, this.arguments, this.createdAt, this.updatedAt, ttl,
				pollInterval, this.session, this.owner, this.leaseExpiresAt, this.outcome);
	}

	/**
	 * This row with the arguments stored in clear (only when the application stores them).
	 * @param arguments the arguments' JSON
	 * @return the changed row
	 */
	public McpTaskRecord withArguments(@Nullable String arguments) {
		return new McpTaskRecord(this.formatVersion, this.upstream, this.taskId, this.tool, this.era, this.status,
				this.statusMessage, this.argumentsHash, arguments, this.createdAt, this.updatedAt, this.ttl,
				this.pollInterval, this.session, this.owner, this.leaseExpiresAt, this.outcome);
	}

	/**
	 * This row bound to the legacy session the task was created in.
	 * @param session the session
	 * @return the changed row
	 */
	public McpTaskRecord withSession(@Nullable BoundSession session) {
		return new McpTaskRecord(this.formatVersion, this.upstream, this.taskId, this.tool, this.era, this.status,
				this.statusMessage, this.argumentsHash, this.arguments, this.createdAt, this.updatedAt, this.ttl,
				this.pollInterval, session, this.owner, this.leaseExpiresAt, this.outcome);
	}

	/**
	 * This row held by an owner until a time.
	 * @param owner the owner ({@link McpTaskStore#owner()})
	 * @param leaseExpiresAt until when
	 * @return the changed row
	 */
	public McpTaskRecord withLease(String owner, Instant leaseExpiresAt) {
		return new McpTaskRecord(this.formatVersion, this.upstream, this.taskId, this.tool, this.era, this.status,
				this.statusMessage, this.argumentsHash, this.arguments, this.createdAt, this.updatedAt, this.ttl,
				this.pollInterval, this.session, owner, leaseExpiresAt, this.outcome);
	}

	/**
	 * This row held by no one, so any process may claim it.
	 * @return the changed row
	 */
	public McpTaskRecord withoutLease() {
		return new McpTaskRecord(this.formatVersion, this.upstream, this.taskId, this.tool, this.era, this.status,
				this.statusMessage, this.argumentsHash, this.arguments, this.createdAt, this.updatedAt, this.ttl,
				this.pollInterval, this.session, null, null, this.outcome);
	}

	/**
	 * This row ended: a terminal status and, unless lost, what the server answered.
	 * @param status the terminal status
	 * @param statusMessage the last status message, if any
	 * @param outcome the JSON of the outcome (see the record's {@code outcome}), null for a lost task
	 * @param at when it ended
	 * @return the changed row
	 * @throws IllegalArgumentException when the status is not terminal
	 */
	public McpTaskRecord withOutcome(McpTaskStatus status, @Nullable String statusMessage, @Nullable String outcome,
			Instant at) {
		if (!status.isTerminal()) {
			throw new IllegalArgumentException("An outcome needs a terminal status, not " + status);
		}
		return new McpTaskRecord(this.formatVersion, this.upstream, this.taskId, this.tool, this.era, status,
				statusMessage, this.argumentsHash, this.arguments, this.createdAt, at, this.ttl, this.pollInterval,
				this.session, this.owner, this.leaseExpiresAt, outcome);
	}

	/**
	 * Whether the task's TTL has passed: the server may have deleted it and its result (2025-11-25
	 * basic/utilities/tasks §TTL and Resource Management, rule 4).
	 * @param now the current time
	 * @return true once {@code createdAt + ttl} is past; never for an unlimited task
	 */
	public boolean expired(Instant now) {
		return this.ttl != null && now.isAfter(this.createdAt.plus(this.ttl));
	}

	/**
	 * The row, with the bound session redacted and without the arguments.
	 * @return a description safe to log
	 */
	@Override
	public String toString() {
		return "McpTaskRecord[upstream=" + this.upstream + ", taskId=" + this.taskId + ", tool=" + this.tool
				+ ", era=" + this.era + ", status=" + this.status + ", createdAt=" + this.createdAt + ", updatedAt="
				+ this.updatedAt + ", owner=" + this.owner + ", leaseExpiresAt=" + this.leaseExpiresAt
				+ ", session=" + this.session + ", formatVersion=" + this.formatVersion + "]";
	}

	/**
	 * The legacy session a 2025-11-25 task is bound to (some servers answer {@code tasks/get} only in the session that
	 * created the task), with what a new process needs to resume it without an {@code initialize}.
	 * @param sessionId the {@code MCP-Session-Id}: the one secret a journal holds
	 * @param protocolVersion the protocol version negotiated in that session
	 * @param serverCapabilities the JSON of the server's capabilities, as its {@code initialize} result declared them
	 */
	public record BoundSession(String sessionId, String protocolVersion, String serverCapabilities)
			implements java.io.Serializable {

		/**
		 * A session, checked.
		 */
		public BoundSession {
			Objects.requireNonNull(sessionId, "sessionId");
			Objects.requireNonNull(protocolVersion, "protocolVersion");
			Objects.requireNonNull(serverCapabilities, "serverCapabilities");
		}

		/**
		 * The session with its id redacted to its first characters.
		 * @return a description safe to log
		 */
		@Override
		public String toString() {
			String shown = (this.sessionId.length() <= 8) ? "…" : this.sessionId.substring(0, 4) + "…";
			return "BoundSession[sessionId=" + shown + ", protocolVersion=" + this.protocolVersion + "]";
		}

	}

}
