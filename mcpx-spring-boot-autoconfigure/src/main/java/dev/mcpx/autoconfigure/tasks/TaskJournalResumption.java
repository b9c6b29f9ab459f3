package dev.mcpx.autoconfigure.tasks;

import java.time.Clock;
import java.time.Duration;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskReference;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.McpTaskResumedEvent;
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
			try {
				return followed.await(bound.isZero() ? Duration.ofMillis(1) : bound);
			}
			catch (McpException ex) {
				if (followed.status() == McpTaskStatus.CANCELLED) {
					throw new TaskJournalResumer.CancelledByServer(ex);
				}
				throw ex;
			}
		}, publisher::publishEvent, resumeInterval, Clock.systemUTC());
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
