package dev.mcpx.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.ResultMapper;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.task.FollowedTask;
import dev.mcpx.client.internal.task.TaskBounds;
import dev.mcpx.client.internal.task.TaskFollower;
import dev.mcpx.client.internal.task.TaskPolling;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;
import tools.jackson.databind.JsonNode;

/**
 * An {@link McpTask} the server created: followed by its id through the client's
 * {@link TaskFollower}, in the thread that asks, or on the shared {@link TaskPolling} threads for
 * {@link #awaitAsync(Duration)}. Its outcome, once known, is kept: a result, or
 * the failure that ended it (a lost task, the call's own JSON-RPC error).
 */
final class FollowedMcpTask implements McpTask {

	private final String upstream;

	private final FollowedTask task;

	private final TaskFollower follower;

	private final JsonRpc jsonRpc;

	private final Duration requestTimeout;

	/** The task's row, written as it changes; one that writes nothing for a resumed task. */
	private final TaskJournal.Entry journal;

	/** One follower at a time: two waiting threads would poll twice as often. */
	private final ReentrantLock awaiting = new ReentrantLock();

	private volatile @Nullable CallToolResult result;

	private volatile @Nullable McpException failure;

	FollowedMcpTask(String upstream, FollowedTask task, TaskFollower follower, JsonRpc jsonRpc, Duration requestTimeout,
			TaskJournal.Entry journal) {
		this.upstream = upstream;
		this.journal = journal;
		this.task = task;
		this.follower = follower;
		this.jsonRpc = jsonRpc;
		this.requestTimeout = requestTimeout;
	}

	@Override
	public String id() {
		return this.task.taskId();
	}

	@Override
	public String upstream() {
		return this.upstream;
	}

	@Override
	public String tool() {
		return this.task.tool();
	}

	@Override
	public McpTaskStatus status() {
		if (this.failure instanceof McpTaskLostException) {
			return McpTaskStatus.LOST;
		}
		if (!this.task.last().status().isTerminal()) {
			try {
				this.follower.refresh(this.task, this.requestTimeout);
			}
			catch (McpTaskLostException ex) {
				this.failure = ex;
				throw ex;
			}
		}
		return this.task.last().status();
	}

	@Override
	public @Nullable String statusMessage() {
		return this.task.last().statusMessage();
	}

	@Override
	public CallToolResult await(Duration timeout) {
		if (timeout == null || timeout.isZero() || timeout.isNegative()) {
			throw new IllegalArgumentException("The timeout of await must be positive, was " + timeout);
		}
		this.awaiting.lock();
		try {
			CallToolResult known = this.result;
			if (known != null) {
				return known;
			}
			McpException ended = this.failure;
			if (ended != null) {
				throw ended;
			}
			try {
				return succeeded(this.follower.follow(this.task, TaskBounds.startingNow(timeout, timeout, false),
						this.journal.listening((state) -> {
						})));
			}
			catch (McpTimeoutException | McpCancelledException ex) {
				throw ex; // the task runs on; it may be awaited again
			}
			catch (McpException ex) {
				throw failed(ex);
			}
		}
		finally {
			this.awaiting.unlock();
		}
	}

	@Override
	public CompletableFuture<CallToolResult> awaitAsync(Duration timeout) {
		if (timeout == null || timeout.isZero() || timeout.isNegative()) {
			throw new IllegalArgumentException("The timeout of awaitAsync must be positive, was " + timeout);
		}
		CallToolResult known = this.result;
		if (known != null) {
			return CompletableFuture.completedFuture(known);
		}
		McpException ended = this.failure;
		if (ended != null) {
			return CompletableFuture.failedFuture(ended);
		}
		CompletableFuture<CallToolResult> mapped = new CompletableFuture<>();
		CompletableFuture<JsonNode> following = TaskPolling.shared()
			.follow(this.follower, this.task, TaskBounds.startingNow(timeout, timeout, false), this.journal.listening((state) -> {
			}));
		following.whenComplete((outcome, failure) -> {
			try {
				if (outcome != null) {
					mapped.complete(succeeded(outcome));
				}
				else if (failure instanceof McpTimeoutException || !(failure instanceof McpException)) {
					mapped.completeExceptionally(failure); // the task runs on
				}
				else {
					mapped.completeExceptionally(failed((McpException) failure));
				}
			}
			catch (RuntimeException ex) {
				mapped.completeExceptionally(ex);
			}
		});
		// cancelling the caller's future stops the following; the task keeps running
		mapped.whenComplete((outcome, failure) -> following.cancel(false));
		return mapped;
	}

	/** The task's outcome, kept and written once. */
	private CallToolResult succeeded(JsonNode outcome) {
		CallToolResult mapped = ResultMapper.callToolResult(outcome);
		this.result = mapped;
		this.journal.ended(TaskJournal.endedWith(this.task.last(), mapped), this.task.last().statusMessage(), mapped,
				null);
		return mapped;
	}

	/** The failure that ended the task, kept and written once when the task ended by it. */
	private McpException failed(McpException ex) {
		this.failure = ex;
		McpTaskStatus endedWith = TaskJournal.endedBy(this.task.last(), ex);
		if (endedWith != null) {
			this.journal.ended(endedWith, this.task.last().statusMessage(), null, ex);
		}
		return ex;
	}

	@Override
	public boolean cancel() {
		if (this.task.last().status().isTerminal() || this.failure != null) {
			return false;
		}
		boolean cancelled = this.follower.cancel(this.task);
		if (cancelled) {
			this.journal.ended(McpTaskStatus.CANCELLED, this.task.last().statusMessage(), null, null);
		}
		return cancelled;
	}

	@Override
	public McpTaskReference reference() {
		return new McpTaskReference(this.upstream, this.task.taskId(), this.task.tool(), false,
				bound(this.task.session()));
	}

	/** The session a reference carries: the one the task lives in, if it has an id. */
	private McpTaskRecord.@Nullable BoundSession bound(@Nullable SessionState session) {
		if (session == null || session.sessionId() == null) {
			return null;
		}
		JsonNode capabilities = session.capabilities();
		String declared = (capabilities != null) ? this.jsonRpc.mapper().writeValueAsString(capabilities) : "{}";
		return new McpTaskRecord.BoundSession(session.sessionId(), session.protocolVersion(), declared);
	}

	@Override
	public String toString() {
		return "McpTask[upstream=" + this.upstream + ", id=" + id() + ", tool=" + tool() + ", status="
				+ this.task.last().status() + "]";
	}

}
