package dev.mcpx.autoconfigure.tasks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;

/**
 * Takes up the journal's orphaned tasks (docs/architecture.md, "The task journal"): at start and every
 * {@code mcpx.tasks.resume-interval}, claims unfinished tasks no process holds ({@link McpTaskStore#claim}), follows
 * each to its outcome through its upstream's client (never by sending its {@code tools/call} again), renews their
 * leases while it follows them, ends each row once and publishes its {@link McpTaskCompletedEvent} only when that
 * ending write succeeded, so among replicas an outcome is published once.
 * <p>
 * A task whose TTL has passed is ended as {@code LOST} without asking the server (2025-11-25 basic/utilities/tasks
 * §TTL and Resource Management, rule 4: the server may have deleted it). A task the server no longer knows
 * ({@link McpTaskLostException}) is ended as {@code LOST}. Any other failure (the upstream is down) gives the task
 * back (its lease released) to be taken up at a later scan. A journal that cannot be read or written is logged and
 * counted ({@link #journalFailures()}), never thrown at the application.
 */
final class TaskJournalResumer {

	private static final Log logger = LogFactory.getLog(TaskJournalResumer.class);

	/**
	 * Tasks followed at once by one process: the rest stay in the journal for the next scan or another replica, so
	 * replicas share a flood of orphans.
	 */
	static final int MAX_FOLLOWED = 16;

	/**
	 * Threads that take tasks up (the first request about each, in its session) and end them (the journal's write,
	 * the application's listeners). Waiting for an outcome holds none: it is polled on the clients' shared polling
	 * threads ({@link dev.mcpx.client.McpTask#awaitAsync}).
	 */
	static final int RESUMING_THREADS = 4;

	/** How long an ended task's row is kept (for the actuator and an operator's look) before it is deleted. */
	static final Duration KEEP_ENDED = Duration.ofHours(1);

	/** How long a resumed task without a TTL is followed before it is given back to the journal. */
	static final Duration MAX_FOLLOW = Duration.ofHours(1);

	private final McpTaskStore store;

	private final Supplier<Collection<String>> upstreams;

	private final TaskFollowing following;

	private final Consumer<McpTaskCompletedEvent> publisher;

	private final Duration resumeInterval;

	private final Clock clock;

	/** Each followed task's following, completed when it ended here; cancelled, it stops being followed. */
	private final Map<Key, CompletableFuture<Void>> followed = new ConcurrentHashMap<>();

	private final AtomicLong journalFailures = new AtomicLong();

	private volatile @Nullable Instant lastJournalFailure;

	private final ScheduledExecutorService timer;

	private final ExecutorService resuming;

	private volatile boolean running;

	TaskJournalResumer(McpTaskStore store, Supplier<Collection<String>> upstreams, TaskFollowing following,
			Consumer<McpTaskCompletedEvent> publisher, Duration resumeInterval, Clock clock) {
		this.store = store;
		this.upstreams = upstreams;
		this.following = following;
		this.publisher = publisher;
		this.resumeInterval = resumeInterval;
		this.clock = clock;
		this.timer = Executors.newSingleThreadScheduledExecutor(named("mcpx-task-resume"));
		this.resuming = Executors.newFixedThreadPool(RESUMING_THREADS, named("mcpx-task-follow"));
	}

	/** Scans now and then every resume interval; renews the leases of followed tasks a few times per lease. */
	void start() {
		this.running = true;
		this.timer.scheduleWithFixedDelay(this::scan, 0, this.resumeInterval.toMillis(), TimeUnit.MILLISECONDS);
		long renewal = Math.max(1, this.store.lease().toMillis() / 3);
		this.timer.scheduleWithFixedDelay(this::renewLeases, renewal, renewal, TimeUnit.MILLISECONDS);
	}

	/**
	 * Stops following and gives every followed task back to the journal, so another replica takes it up at once.
	 */
	void stop() {
		this.running = false;
		this.timer.shutdownNow();
		this.resuming.shutdownNow();
		for (Map.Entry<Key, CompletableFuture<Void>> entry : this.followed.entrySet()) {
			entry.getValue().cancel(false);
			Key key = entry.getKey();
			try {
				this.store.release(key.upstream(), key.taskId());
			}
			catch (McpTaskStoreException ex) {
				journalFailed("release", ex);
			}
		}
		this.followed.clear();
	}

	/**
	 * Stops every thread without giving any task back, as a process that dies does (for tests of what the other
	 * replicas then do).
	 */
	void halt() {
		this.running = false;
		this.timer.shutdownNow();
		this.resuming.shutdownNow();
		this.followed.values().forEach((following) -> following.cancel(false));
	}

	/** How many reads or writes of the journal failed since start. */
	long journalFailures() {
		return this.journalFailures.get();
	}

	/** When the journal last failed, if it did. */
	@Nullable Instant lastJournalFailure() {
		return this.lastJournalFailure;
	}

	/** How many tasks this process follows now. */
	int followedTasks() {
		return this.followed.size();
	}

	/** One scan: claims what there is room for and follows it. */
	void scan() {
		if (!this.running) {
			return;
		}
		int room = MAX_FOLLOWED - this.followed.size();
		Collection<String> names = this.upstreams.get();
		if (room <= 0 || names.isEmpty()) {
			return;
		}
		Instant now = this.clock.instant();
		try {
			this.store.purge(now.minus(KEEP_ENDED));
		}
		catch (McpTaskStoreException ex) {
			journalFailed("purge", ex);
		}
		List<McpTaskRecord> claimed;
		try {
			claimed = this.store.claim(names, now, room);
		}
		catch (McpTaskStoreException ex) {
			journalFailed("claim", ex);
			return;
		}
		for (McpTaskRecord task : claimed) {
			if (task.expired(now)) {
				end(task, McpTaskStatus.LOST, null, new McpTaskLostException(task.upstream(), task.taskId(),
						task.tool(), "its TTL of " + task.ttl() + " passed before it was taken up again", null));
				continue;
			}
			Key key = new Key(task.upstream(), task.taskId());
			CompletableFuture<Void> following = new CompletableFuture<>();
			this.followed.put(key, following);
			this.resuming.execute(() -> takeUp(key, task, following));
		}
	}

	/** Asks the server about the task in its session, then waits for its outcome without a thread. */
	private void takeUp(Key key, McpTaskRecord task, CompletableFuture<Void> following) {
		if (following.isDone()) {
			return; // taken over, or stopped, before its turn came
		}
		logger.info("[" + task.upstream() + "] taking up task " + task.taskId() + " of tool '" + task.tool()
				+ "', left unfinished by a process that is gone");
		CompletableFuture<CallToolResult> outcome;
		try {
			outcome = this.following.follow(task, bound(task));
		}
		catch (RuntimeException ex) {
			ended(key, task, following, null, ex);
			return;
		}
		// a takeover, or stop, cancels the following: the client stops polling the task
		following.whenComplete((ignored, ex) -> {
			if (following.isCancelled()) {
				outcome.cancel(false);
			}
		});
		outcome.whenCompleteAsync((result, ex) -> ended(key, task, following, result, ex), this.resuming);
	}

	/** Ends the task's row with its outcome, or gives it back when it could not be followed now. */
	private void ended(Key key, McpTaskRecord task, CompletableFuture<Void> following, @Nullable CallToolResult result,
			@Nullable Throwable failure) {
		try {
			if (following.isCancelled()) {
				return; // another process took it over: it follows and publishes it now
			}
			Throwable cause = unwrap(failure);
			if (cause == null && result != null) {
				endFollowed(key, task, result.isError() ? McpTaskStatus.FAILED : McpTaskStatus.COMPLETED, result, null);
			}
			else if (cause instanceof McpTaskLostException ex) {
				endFollowed(key, task, McpTaskStatus.LOST, null, ex);
			}
			else if (cause instanceof CancelledByServer ex) {
				endFollowed(key, task, McpTaskStatus.CANCELLED, null, ex.failure);
			}
			else if (this.running && !(cause instanceof CancellationException)) {
				logger.warn("[" + task.upstream() + "] task " + task.taskId() + " could not be followed now, left "
						+ "for a later attempt: " + ((cause != null) ? cause.getMessage() : "no outcome"));
				giveBack(task);
			}
		}
		finally {
			this.followed.remove(key, following);
			following.complete(null);
		}
	}

	private static @Nullable Throwable unwrap(@Nullable Throwable failure) {
		Throwable cause = failure;
		while (cause instanceof CompletionException && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	/**
	 * Ends the row of a task this process followed to its outcome. It is no longer followed from here on: a lease
	 * renewal that finds its row ended must not take that for a takeover, and cancel the following whose outcome is
	 * being published to the application's listeners.
	 */
	private void endFollowed(Key key, McpTaskRecord task, McpTaskStatus status, @Nullable CallToolResult result,
			@Nullable McpException failure) {
		this.followed.remove(key);
		end(task, status, result, failure);
	}

	private Duration bound(McpTaskRecord task) {
		Duration ttl = task.ttl();
		if (ttl == null) {
			return MAX_FOLLOW;
		}
		Duration left = Duration.between(this.clock.instant(), task.createdAt().plus(ttl));
		return left.isNegative() ? Duration.ZERO : left;
	}

	private void end(McpTaskRecord task, McpTaskStatus status, @Nullable CallToolResult result,
			@Nullable McpException failure) {
		Instant now = this.clock.instant();
		boolean ended;
		try {
			ended = this.store.update(task.withOutcome(status, (failure != null) ? failure.getMessage() : null,
					TaskOutcomes.json(result, failure), now));
		}
		catch (McpTaskStoreException ex) {
			journalFailed("end", ex);
			return;
		}
		if (!ended) {
			// another process ended it, or took it over: it publishes, not this one
			return;
		}
		Duration took = Duration.between(task.createdAt(), now);
		try {
			this.publisher.accept(new McpTaskCompletedEvent(task.upstream(), task.taskId(), task.tool(), status,
					result, failure, took.isNegative() ? Duration.ZERO : took, true));
		}
		catch (RuntimeException ex) {
			logger.warn("[" + task.upstream() + "] a listener of task " + task.taskId() + "'s completion failed", ex);
		}
	}

	private void giveBack(McpTaskRecord task) {
		try {
			this.store.release(task.upstream(), task.taskId());
		}
		catch (McpTaskStoreException ex) {
			journalFailed("release", ex);
		}
	}

	void renewLeases() {
		Instant now = this.clock.instant();
		for (Map.Entry<Key, CompletableFuture<Void>> entry : this.followed.entrySet()) {
			Key key = entry.getKey();
			try {
				if (!this.store.renew(key.upstream(), key.taskId(), now)) {
					// the lease lapsed and another process took the task: it follows and publishes it now
					logger.info("[" + key.upstream() + "] task " + key.taskId() + " was taken over by another process");
					entry.getValue().cancel(false);
					this.followed.remove(key);
				}
			}
			catch (McpTaskStoreException ex) {
				journalFailed("renew", ex);
			}
		}
	}

	private void journalFailed(String operation, McpTaskStoreException ex) {
		this.journalFailures.incrementAndGet();
		this.lastJournalFailure = this.clock.instant();
		logger.warn("The task journal failed to " + operation + "; tasks are not guaranteed to outlive this process "
				+ "until it works again: " + ex.getMessage());
	}

	private static ThreadFactory named(String name) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * Follows one journalled task to its outcome through its upstream's client.
	 */
	@FunctionalInterface
	interface TaskFollowing {

		/**
		 * Takes a task up, by its id and its bound session, never by sending its call again, and follows it to its
		 * outcome without holding the calling thread; cancelling the future stops following it.
		 * @param task the journal's row
		 * @param bound the longest wait
		 * @return the task's result, or its failure: {@link McpTaskLostException} when the server no longer knows
		 * the task, {@link CancelledByServer} when the server cancelled it
		 * @throws McpException when the task could not be taken up now
		 */
		CompletableFuture<CallToolResult> follow(McpTaskRecord task, Duration bound);

	}

	private record Key(String upstream, String taskId) {
	}

	/**
	 * The server cancelled the task: it ended, without a result.
	 */
	static final class CancelledByServer extends RuntimeException {

		private final McpException failure;

		CancelledByServer(McpException failure) {
			super(failure.getMessage(), failure);
			this.failure = failure;
		}

	}

}
