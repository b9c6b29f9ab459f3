package dev.mcpx.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.error.McpTaskStoreVersionException;

/**
 * The task journal: one {@link McpTaskRecord} per task a client follows, so that a task outlives the process that
 * started it (2025-11-25 basic/utilities/tasks; 2026-07-28 tasks extension). The default keeps rows in memory
 * ({@link #inMemory()}); the auto-configuration offers a JDBC journal ({@code mcpx.tasks.store: jdbc}) that
 * several replicas of an application share.
 * <p>
 * <b>How a client writes it.</b> When a task's id arrives, {@link #create} a row built with
 * {@link McpTaskRecord#created} (owner {@link #owner()}, lease until now plus {@link #lease()}; for a legacy task,
 * {@link McpTaskRecord#withSession} the session it is bound to). At each status change, {@link #update} the row.
 * When the task ends, {@link #update} it with {@link McpTaskRecord#withOutcome}, and publish its completion only
 * when that update returned {@code true}: a row is ended once, by the one owner that holds it, so its outcome is
 * published once among every process sharing the journal. While following a task, {@link #renew} its lease (at
 * most a third of {@link #lease()} apart); an update or renewal that returns {@code false} means another process
 * has taken the task over, and this one stops following it without publishing anything.
 * <p>
 * <b>How orphans are taken up.</b> A process that died leaves rows whose lease passes. {@link #claim} hands each
 * such unfinished row to exactly one caller, atomically (a compare-and-set on the lease), and that caller follows
 * the task through its reference, never by sending the {@code tools/call} again.
 * <p>
 * <b>Failures.</b> Every method may throw {@link McpTaskStoreException} (the database is down). A client never lets
 * it fail the call it records: it logs it, counts it and reports it in health, since the restart guarantee is then
 * void. A row written by a newer version of mcpx, in a format newer than {@link #FORMAT_VERSION}, is refused with
 * {@link McpTaskStoreVersionException} when asked for by key, and never claimed.
 * <p>
 * Implementations are thread-safe.
 */
public interface McpTaskStore {

	/** The format of the rows this version of mcpx writes and the newest it reads. */
	int FORMAT_VERSION = 1;

	/** How long a process holds a task it follows unless it renews the lease. */
	Duration DEFAULT_LEASE = Duration.ofSeconds(30);

	/**
	 * Who this process is, among the processes that share the journal: the owner of the rows it creates and claims.
	 * Unique per store instance (a restarted application is another owner).
	 * @return the owner id, no secret and no user identity
	 */
	String owner();

	/**
	 * How long a lease lasts from its last renewal.
	 * @return the lease
	 */
	Duration lease();

	/**
	 * Writes the row of a task whose id just arrived.
	 * @param task the row, owned by {@link #owner()}
	 * @throws McpTaskStoreException when it cannot be written, or a row with its upstream and id exists already
	 */
	void create(McpTaskRecord task);

	/**
	 * Writes a changed row (status, message, timing, session, outcome, lease), only while this process holds it.
	 * @param task the changed row
	 * @return true when written; false when the row is gone, already ended, or held by another owner
	 * @throws McpTaskStoreException when it cannot be written
	 */
	boolean update(McpTaskRecord task);

	/**
	 * Extends this process's lease of a task to {@code now} plus {@link #lease()}.
	 * @param upstream the upstream name
	 * @param taskId the task id
	 * @param now the current time
	 * @return true when renewed; false when the task is gone, ended, or held by another owner
	 * @throws McpTaskStoreException when it cannot be written
	 */
	boolean renew(String upstream, String taskId, Instant now);

	/**
	 * Gives up this process's lease of an unfinished task (an application closing), so another process may claim it
	 * at once.
	 * @param upstream the upstream name
	 * @param taskId the task id
	 * @throws McpTaskStoreException when it cannot be written
	 */
	void release(String upstream, String taskId);

	/**
	 * Takes up unfinished tasks no process holds (no owner, or a lease passed before {@code now}): atomically, so each
	 * row goes to one caller among every process sharing the journal.
	 * @param upstreams the upstreams this process has a client for; rows of others are left
	 * @param now the current time
	 * @param limit at most this many rows
	 * @return the claimed rows, now owned by {@link #owner()} until {@code now} plus {@link #lease()}
	 * @throws McpTaskStoreException when the journal cannot be read or written
	 */
	List<McpTaskRecord> claim(Collection<String> upstreams, Instant now, int limit);

	/**
	 * The row of a task.
	 * @param upstream the upstream name
	 * @param taskId the task id
	 * @return the row, if the journal has it
	 * @throws McpTaskStoreVersionException when the row was written in a newer format
	 * @throws McpTaskStoreException when the journal cannot be read
	 */
	Optional<McpTaskRecord> find(String upstream, String taskId);

	/**
	 * The unfinished tasks of an upstream, whoever holds them, oldest first (for health and the actuator).
	 * @param upstream the upstream name
	 * @return the rows, leaving out rows of a newer format
	 * @throws McpTaskStoreException when the journal cannot be read
	 */
	List<McpTaskRecord> unfinished(String upstream);

	/**
	 * Deletes ended tasks last updated before a time.
	 * @param endedBefore the time
	 * @return how many rows were deleted
	 * @throws McpTaskStoreException when the journal cannot be written
	 */
	int purge(Instant endedBefore);

	/**
	 * A journal in memory, for one run of the application: tasks survive broken streams and expired sessions, not
	 * the application's restart.
	 * @return a new, empty journal with a lease of {@link #DEFAULT_LEASE}
	 */
	static McpTaskStore inMemory() {
		return new InMemoryMcpTaskStore(DEFAULT_LEASE);
	}

}
