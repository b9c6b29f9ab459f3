package dev.mcpx.autoconfigure.actuate;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.event.EventListener;

import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.event.McpTaskCreatedEvent;

/**
 * Counts tasks (docs/architecture.md, "Tasks") as {@value #NAME}, tagged {@code upstream} and {@code status}: once
 * with {@code created} when a call of this process became a task, and once with how it ended ({@code completed},
 * {@code failed}, {@code cancelled} or {@code lost}) when its outcome is published, by whichever process published it
 * (so among replicas sharing a journal, each outcome is counted once). A task whose journal could not be written has
 * no published outcome, and so no ending count. The meters of an upstream removed from the live set go with it
 * ({@link McpxRecoveryMetrics#removed}).
 */
public class McpxTaskMetrics {

	/** The counter's name. */
	public static final String NAME = "mcpx.client.tasks";

	/** The {@code status} of a task created. */
	static final String CREATED = "created";

	private final MeterRegistry registry;

	/**
	 * Creates the counter's source.
	 * @param registry where the counter goes
	 */
	public McpxTaskMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	/**
	 * Counts a task created.
	 * @param event its creation
	 */
	@EventListener
	public void onCreated(McpTaskCreatedEvent event) {
		count(event.upstream(), CREATED);
	}

	/**
	 * Counts a task's outcome.
	 * @param event its outcome
	 */
	@EventListener
	public void onCompleted(McpTaskCompletedEvent event) {
		count(event.upstream(), event.status().wireName());
	}

	private void count(String upstream, String status) {
		Counter.builder(NAME)
			.description("Tasks of MCP clients: created, and by how they ended")
			.tag("upstream", upstream)
			.tag("status", status)
			.register(this.registry)
			.increment();
	}

}
