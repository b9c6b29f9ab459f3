package dev.mcpx.client.internal.task;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import tools.jackson.databind.JsonNode;

/**
 * Follows tasks without a thread of their own (docs/architecture.md, "Tasks"): one timer thread
 * waits out each task's poll interval, and a bounded pool of {@link #WORKERS} threads runs the
 * steps ({@link TaskFollower#settle}, {@link TaskFollower#pollOnce}), each one request. However
 * many tasks are in flight, every client of the JVM shares these threads; a step that waits long
 * (the input handler answering, a 2025-11-25 {@code tasks/result} of a task that needs input)
 * holds one worker meanwhile. The threads are daemons, made on demand and ended when idle.
 */
public final class TaskPolling {

	private static final Log logger = LogFactory.getLog(TaskPolling.class);

	/** The threads that run steps, whatever the number of tasks in flight. */
	public static final int WORKERS = 8;

	/** Every thread of the polling is named with this prefix. */
	public static final String THREAD_PREFIX = "mcpx-task-poll-";

	private static final TaskPolling SHARED = new TaskPolling();

	private final ScheduledThreadPoolExecutor timer;

	private final ThreadPoolExecutor workers;

	private TaskPolling() {
		this.timer = new ScheduledThreadPoolExecutor(1, threads("timer"));
		this.timer.setKeepAliveTime(30, TimeUnit.SECONDS);
		this.timer.allowCoreThreadTimeOut(true);
		this.timer.setRemoveOnCancelPolicy(true);
		this.workers = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				threads("worker"));
		this.workers.allowCoreThreadTimeOut(true);
	}

	/**
	 * The polling every client of the JVM shares.
	 * @return the shared polling
	 */
	public static TaskPolling shared() {
		return SHARED;
	}

	/**
	 * Follows a task to its outcome on the shared threads, as {@link TaskFollower#follow} does
	 * in the caller's thread, with the same bounds; the task is not cancelled when a bound passes
	 * (only a caller that gives up cancels, and this caller does not wait).
	 * @param follower the follower of the task's client
	 * @param task the task
	 * @param bounds how long to follow it
	 * @param listener hears what following finds, in a polling thread
	 * @return the tool call's result, or the failure that ended the following; cancelling the
	 * future stops the following and leaves the task running
	 */
	public CompletableFuture<JsonNode> follow(TaskFollower follower, FollowedTask task, TaskBounds bounds,
			TaskFollower.Listener listener) {
		CompletableFuture<JsonNode> outcome = new CompletableFuture<>();
		FollowProgress progress = follower.start(task, bounds, listener);
		this.workers.execute(() -> step(follower, progress, outcome, true));
		return outcome;
	}

	private void step(TaskFollower follower, FollowProgress progress, CompletableFuture<JsonNode> outcome,
			boolean first) {
		if (outcome.isDone()) {
			return;
		}
		try {
			if (!first) {
				follower.pollOnce(progress);
			}
			JsonNode result = follower.settle(progress);
			if (result != null) {
				outcome.complete(result);
				return;
			}
			Duration delay = follower.delay(progress);
			this.timer.schedule(() -> this.workers.execute(() -> step(follower, progress, outcome, false)),
					delay.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (RuntimeException ex) {
			logger.debug("following task " + progress.task().taskId() + " ended: " + ex.getMessage());
			outcome.completeExceptionally(ex);
		}
	}

	private static ThreadFactory threads(String role) {
		AtomicInteger count = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, THREAD_PREFIX + role + "-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
