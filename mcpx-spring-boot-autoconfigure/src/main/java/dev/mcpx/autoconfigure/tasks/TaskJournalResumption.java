package dev.mcpx.autoconfigure.tasks;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskReference;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpTaskCancelledException;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;

/**
 * The application's resumption of orphaned tasks ({@link TaskJournalResumer}), started once every bean is ready and
 * stopped before the clients close: each claimed row is followed through its upstream's
 * {@link dev.mcpx.client.McpClient#resumeTask}, in the session the task is bound to ({@link McpTaskResumedEvent} once
 * the server answered about it there), and its outcome published as an application event.
 */
final class TaskJournalResumption implements SmartLifecycle {

	private final TaskJournalResumer resumer;

	private volatile boolean running;

	TaskJournalResumption(McpTaskStore store, McpClients clients, ApplicationEventPublisher publisher,
			Duration resumeInterval) {
		this.resumer = new TaskJournalResumer(store, clients::names, (task, bound) -> {
			McpTask followed = clients.get(task.upstream())
				.resumeTask(new McpTaskReference(task.upstream(), task.taskId(), task.tool(), false, task.session()));
			// the server answered about it in its session: this process follows it now
			publisher.publishEvent(new McpTaskResumedEvent(task.upstream(), task.taskId(), task.tool(),
					McpTaskResumedEvent.Cause.APPLICATION_RESTARTED));
			return outcome(followed, followed.awaitAsync(bound.isZero() ? Duration.ofMillis(1) : bound));
		}, publisher::publishEvent, resumeInterval, Clock.systemUTC());
	}

	/**
	 * The task's outcome, a cancellation by the server told apart from a failure (2025-11-25 basic/utilities/tasks
	 * §Task Status Lifecycle: {@code cancelled} is terminal, the work ended without a result); cancelling it stops
	 * following the task.
	 */
	private static CompletableFuture<CallToolResult> outcome(McpTask followed,
			CompletableFuture<CallToolResult> awaited) {
		CompletableFuture<CallToolResult> outcome = awaited.handle((result, failure) -> {
			if (failure == null) {
				return result;
			}
			Throwable cause = (failure instanceof CompletionException && failure.getCause() != null)
					? failure.getCause() : failure;
			if (cause instanceof McpTaskCancelledException
					|| (cause instanceof McpException && followed.status() == McpTaskStatus.CANCELLED)) {
				throw new TaskJournalResumer.CancelledByServer((McpException) cause);
			}
			throw (cause instanceof RuntimeException runtime) ? runtime : new CompletionException(cause);
		});
		outcome.whenComplete((result, failure) -> {
			if (outcome.isCancelled()) {
				awaited.cancel(false);
			}
		});
		return outcome;
	}

	TaskJournalResumer resumer() {
		return this.resumer;
	}

	@Override
	public void start() {
		this.resumer.start();
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.resumer.stop();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
