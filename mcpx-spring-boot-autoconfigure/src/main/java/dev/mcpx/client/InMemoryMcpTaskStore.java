package dev.mcpx.client;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.error.McpTaskStoreVersionException;

/**
 * The default {@link McpTaskStore}: rows in memory, lost when the application stops. One lock guards them, so
 * claims and updates are atomic as the contract asks.
 */
public final class InMemoryMcpTaskStore implements McpTaskStore {

	private final Map<Key, McpTaskRecord> rows;

	private final String owner = "mem-" + UUID.randomUUID();

	private final Duration lease;

	/**
	 * Creates an empty journal.
	 * @param lease how long a lease lasts from its last renewal
	 */
	public InMemoryMcpTaskStore(Duration lease) {
		this(new LinkedHashMap<>(), lease);
	}

	private InMemoryMcpTaskStore(Map<Key, McpTaskRecord> rows, Duration lease) {
		if (lease.isNegative() || lease.isZero()) {
			throw new IllegalArgumentException("The task lease must be positive, not " + lease);
		}
		this.rows = rows;
		this.lease = lease;
	}

	/**
	 * Another owner of the same rows, as a second replica would be on a shared journal (for tests of what replicas
	 * do).
	 * @return a store on these rows with an owner of its own
	 */
	InMemoryMcpTaskStore replica() {
		return new InMemoryMcpTaskStore(this.rows, this.lease);
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
		synchronized (this.rows) {
			Key key = new Key(task.upstream(), task.taskId());
			if (this.rows.containsKey(key)) {
				throw new McpTaskStoreException(task.upstream(), "Task " + task.taskId() + " is journalled already", null);
			}
			this.rows.put(key, task);
		}
	}

	@Override
	public boolean update(McpTaskRecord task) {
		synchronized (this.rows) {
			Key key = new Key(task.upstream(), task.taskId());
			McpTaskRecord row = this.rows.get(key);
			if (!heldHere(row)) {
				return false;
			}
			this.rows.put(key, task);
			return true;
		}
	}

	@Override
	public boolean renew(String upstream, String taskId, Instant now) {
		synchronized (this.rows) {
			Key key = new Key(upstream, taskId);
			McpTaskRecord row = this.rows.get(key);
			if (row == null || !heldHere(row)) {
				return false;
			}
			this.rows.put(key, row.withLease(this.owner, now.plus(this.lease)));
			return true;
		}
	}

	@Override
	public void release(String upstream, String taskId) {
		synchronized (this.rows) {
			Key key = new Key(upstream, taskId);
			McpTaskRecord row = this.rows.get(key);
			if (row != null && heldHere(row)) {
				this.rows.put(key, row.withoutLease());
			}
		}
	}

	@Override
	public List<McpTaskRecord> claim(Collection<String> upstreams, Instant now, int limit) {
		synchronized (this.rows) {
			List<McpTaskRecord> claimed = new ArrayList<>();
			for (Map.Entry<Key, McpTaskRecord> entry : this.rows.entrySet()) {
				McpTaskRecord row = entry.getValue();
				if (claimed.size() >= limit) {
					break;
				}
				if (upstreams.contains(row.upstream()) && !row.status().isTerminal()
						&& row.formatVersion() <= FORMAT_VERSION && leaseFree(row, now)) {
					McpTaskRecord taken = row.withLease(this.owner, now.plus(this.lease));
					entry.setValue(taken);
					claimed.add(taken);
				}
			}
			return claimed;
		}
	}

	@Override
	public Optional<McpTaskRecord> find(String upstream, String taskId) {
		synchronized (this.rows) {
			McpTaskRecord row = this.rows.get(new Key(upstream, taskId));
			if (row != null && row.formatVersion() > FORMAT_VERSION) {
				throw new McpTaskStoreVersionException(upstream, taskId, row.formatVersion(), FORMAT_VERSION);
			}
			return Optional.ofNullable(row);
		}
	}

	@Override
	public List<McpTaskRecord> unfinished(String upstream) {
		synchronized (this.rows) {
			return this.rows.values()
				.stream()
				.filter((row) -> row.upstream().equals(upstream) && !row.status().isTerminal()
						&& row.formatVersion() <= FORMAT_VERSION)
				.sorted(Comparator.comparing(McpTaskRecord::createdAt))
				.toList();
		}
	}

	@Override
	public int purge(Instant endedBefore) {
		synchronized (this.rows) {
			int before = this.rows.size();
			this.rows.values().removeIf((row) -> row.status().isTerminal() && row.updatedAt().isBefore(endedBefore));
			return before - this.rows.size();
		}
	}

	private boolean heldHere(@Nullable McpTaskRecord row) {
		return row != null && !row.status().isTerminal() && this.owner.equals(row.owner());
	}

	private static boolean leaseFree(McpTaskRecord row, Instant now) {
		Instant expires = row.leaseExpiresAt();
		return expires == null || expires.isBefore(now);
	}

	private record Key(String upstream, String taskId) {
	}

}
