package dev.mcpx.client.internal.task;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;

/**
 * What following one task has found so far, between its steps: when its status last changed,
 * and the last failure on the way (the cause of a timeout). A step runs in one thread at a
 * time, in the caller's ({@link TaskFollower#follow}) or a polling thread ({@link TaskPolling}).
 */
final class FollowProgress {

	private final FollowedTask task;

	private final TaskBounds bounds;

	private final TaskFollower.Listener listener;

	private volatile long lastChange;

	private volatile @Nullable McpException lastFailure;

	FollowProgress(FollowedTask task, TaskBounds bounds, TaskFollower.Listener listener, long startedNanos) {
		this.task = task;
		this.bounds = bounds;
		this.listener = listener;
		this.lastChange = startedNanos;
	}

	FollowedTask task() {
		return this.task;
	}

	TaskBounds bounds() {
		return this.bounds;
	}

	TaskFollower.Listener listener() {
		return this.listener;
	}

	long lastChange() {
		return this.lastChange;
	}

	@Nullable McpException lastFailure() {
		return this.lastFailure;
	}

	void changed(long nowNanos) {
		this.lastChange = nowNanos;
	}

	void failed(@Nullable McpException failure) {
		if (failure != null) {
			this.lastFailure = failure;
		}
	}

}
