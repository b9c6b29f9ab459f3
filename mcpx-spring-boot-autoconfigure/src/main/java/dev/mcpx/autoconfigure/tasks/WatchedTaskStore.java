package dev.mcpx.autoconfigure.tasks;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;

/**
 * A journal whose reads and writes an {@link McpTaskJournalMonitor} sees: each write that succeeds and each operation
 * that throws. It changes nothing of what the journal does.
 */
final class WatchedTaskStore implements McpTaskStore {

	private final McpTaskStore store;

	private final McpTaskJournalMonitor monitor;

	WatchedTaskStore(McpTaskStore store, McpTaskJournalMonitor monitor) {
		this.store = store;
		this.monitor = monitor;
	}

	McpTaskJournalMonitor monitor() {
		return this.monitor;
	}

	@Override
	public String owner() {
		return this.store.owner();
	}

	@Override
	public Duration lease() {
		return this.store.lease();
	}

	@Override
	public void create(McpTaskRecord task) {
		written("create", () -> this.store.create(task));
	}

	@Override
	public boolean update(McpTaskRecord task) {
		return write("update", () -> this.store.update(task));
	}

	@Override
	public boolean renew(String upstream, String taskId, Instant now) {
		return write("renew", () -> this.store.renew(upstream, taskId, now));
	}

	@Override
	public void release(String upstream, String taskId) {
		written("release", () -> this.store.release(upstream, taskId));
	}

	@Override
	public List<McpTaskRecord> claim(Collection<String> upstreams, Instant now, int limit) {
		return write("claim", () -> this.store.claim(upstreams, now, limit));
	}

	@Override
	public Optional<McpTaskRecord> find(String upstream, String taskId) {
		return read("find", () -> this.store.find(upstream, taskId));
	}

	@Override
	public List<McpTaskRecord> unfinished(String upstream) {
		return read("unfinished", () -> this.store.unfinished(upstream));
	}

	@Override
	public int purge(Instant endedBefore) {
		return write("purge", () -> this.store.purge(endedBefore));
	}

	private void written(String operation, Runnable write) {
		write(operation, () -> {
			write.run();
			return true;
		});
	}

	private <T> T write(String operation, Supplier<T> write) {
		T result = read(operation, write);
		this.monitor.written();
		return result;
	}

	private <T> T read(String operation, Supplier<T> read) {
		try {
			return read.get();
		}
		catch (RuntimeException ex) {
			this.monitor.failed(operation, ex);
			throw ex;
		}
	}

	@Override
	public String toString() {
		return this.store.toString();
	}

}
