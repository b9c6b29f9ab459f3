package dev.mcpx.client.tasks;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.event.McpTaskCreatedEvent;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ResponseLosingProxy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task as seen from outside (docs/architecture.md, "Tasks"): {@link McpTaskCreatedEvent} when its id arrives,
 * {@link McpTaskResumedEvent} when the server answers about it after something broke its following (a lost poll, an
 * expired session), {@link McpTaskCompletedEvent} once with its outcome; in that order, each naming the task and no
 * session. Against the project's 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}, whose tasks span sessions),
 * behind a proxy that loses chosen answers; the server counts one {@code tools/call} and one execution each time.
 */
class TaskEventsTest {

	private NodePeer peer;

	private ResponseLosingProxy proxy;

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("tasks", URI.create(this.proxy.url("/mcp")))
		.protocol(ProtocolMode.LEGACY)
		.requestTimeout(Duration.ofSeconds(10))
		.eventListener(this.events::add));

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		this.proxy = ResponseLosingProxy.to(this.peer.port());
	}

	@AfterEach
	void stop() {
		this.proxy.close();
		this.peer.close();
	}

	@Test
	void aJournalledTaskIsCreatedThenCompletedOnceAndNothingIsResumed() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(McpTaskStore.inMemory()));

		CallToolResult result = client.callTool("delete_record", Map.of("id", "e1", "durationMs", 300));

		assertThat(result.text()).isEqualTo("Deleted record e1");
		List<McpEvent> tasks = taskEvents();
		assertThat(tasks).hasSize(2);
		assertThat(tasks.get(0)).isInstanceOfSatisfying(McpTaskCreatedEvent.class, (created) -> {
			assertThat(created.upstream()).isEqualTo("tasks");
			assertThat(created.tool()).isEqualTo("delete_record");
			assertThat(created.status()).isEqualTo(McpTaskStatus.WORKING);
			assertThat(created.journalled()).isTrue();
		});
		assertThat(tasks.get(1)).isInstanceOfSatisfying(McpTaskCompletedEvent.class, (completed) -> {
			assertThat(completed.taskId()).isEqualTo(((McpTaskCreatedEvent) tasks.get(0)).taskId());
			assertThat(completed.status()).isEqualTo(McpTaskStatus.COMPLETED);
		});
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
	}

	@Test
	void withoutAJournalATaskIsCreatedUnjournalledAndItsOutcomeIsNotPublished() {
		CallToolResult result = this.clients.client().callTool("delete_record", Map.of("id", "e2", "durationMs", 300));

		assertThat(result.text()).isEqualTo("Deleted record e2");
		assertThat(taskEvents()).singleElement()
			.isInstanceOfSatisfying(McpTaskCreatedEvent.class, (created) -> assertThat(created.journalled()).isFalse());
	}

	@Test
	void aPollWhoseAnswersWereLostIsResumedOnceTheServerAnswersAgain() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(McpTaskStore.inMemory()));
		// more losses in a row than the recovery loop re-sends one poll: the follower itself sees polls fail
		this.proxy.loseResponseOfMethod("tasks/get", 4);

		CallToolResult result = client.callTool("delete_record",
				Map.of("id", "e3", "durationMs", 3000, "pollIntervalMs", 100));

		assertThat(result.text()).isEqualTo("Deleted record e3");
		assertThat(this.proxy.lost()).isEqualTo(4);
		List<McpTaskResumedEvent> resumed = resumed();
		assertThat(resumed).isNotEmpty().hasSizeLessThanOrEqualTo(4);
		assertThat(resumed).allSatisfy((event) -> {
			assertThat(event.cause()).isEqualTo(McpTaskResumedEvent.Cause.STREAM_LOST);
			assertThat(event.tool()).isEqualTo("delete_record");
		});
		// resumed before its outcome, which comes once
		List<McpEvent> tasks = taskEvents();
		assertThat(tasks.get(0)).isInstanceOf(McpTaskCreatedEvent.class);
		assertThat(tasks.get(tasks.size() - 1)).isInstanceOf(McpTaskCompletedEvent.class);
		assertThat(tasks).filteredOn(McpTaskCompletedEvent.class::isInstance).hasSize(1);
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aTaskWhoseSessionExpiredIsResumedInTheNewSessionOnce() throws Exception {
		McpClient client = this.clients.client((builder) -> builder.taskStore(McpTaskStore.inMemory()));
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> call = caller.submit(() -> client.callTool("delete_record",
					Map.of("id", "e4", "durationMs", 3000, "pollIntervalMs", 200)));
			awaitPolls(1);
			// 2025-11-25 basic/transports §Session Management: the server forgets the session, not the task
			this.peer.forgetSessions();

			assertThat(call.get(30, TimeUnit.SECONDS).text()).isEqualTo("Deleted record e4");
		}
		finally {
			caller.shutdownNow();
		}
		assertThat(resumed()).singleElement().satisfies((event) -> {
			assertThat(event.cause()).isEqualTo(McpTaskResumedEvent.Cause.SESSION_EXPIRED);
			assertThat(event.upstream()).isEqualTo("tasks");
		});
		assertThat(taskEvents()).filteredOn(McpTaskCompletedEvent.class::isInstance).hasSize(1);
		assertThat(this.proxy.requests("initialize")).isEqualTo(2);
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	private List<McpEvent> taskEvents() {
		return this.events.stream()
			.filter((event) -> event instanceof McpTaskCreatedEvent || event instanceof McpTaskResumedEvent
					|| event instanceof McpTaskCompletedEvent)
			.toList();
	}

	private List<McpTaskResumedEvent> resumed() {
		return this.events.stream()
			.filter(McpTaskResumedEvent.class::isInstance)
			.map(McpTaskResumedEvent.class::cast)
			.toList();
	}

	private void awaitPolls(int polls) throws InterruptedException {
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (this.proxy.requests("tasks/get") < polls) {
			if (System.nanoTime() > until) {
				throw new AssertionError("no poll reached the server");
			}
			Thread.sleep(20);
		}
	}

}
