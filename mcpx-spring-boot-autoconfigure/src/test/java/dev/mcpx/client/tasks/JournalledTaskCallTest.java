package dev.mcpx.client.tasks;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client with a task journal writes each task it follows to it (docs/architecture.md, "The task journal"): the row
 * when the task id arrives, bound to its legacy session, and its end once, after which its
 * {@link McpTaskCompletedEvent} is published once; a journal that cannot be written never fails the call. Against
 * the project's 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}), counting executions on the server.
 */
class JournalledTaskCallTest {

	private NodePeer peer;

	private final McpTaskStore store = McpTaskStore.inMemory();

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("tasks", java.net.URI.create(this.peer.url()))
		.protocol(ProtocolMode.LEGACY)
		.requestTimeout(Duration.ofSeconds(10))
		.eventListener(this.events::add));

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	private List<McpTaskCompletedEvent> completions() {
		return this.events.stream()
			.filter(McpTaskCompletedEvent.class::isInstance)
			.map(McpTaskCompletedEvent.class::cast)
			.toList();
	}

	@Test
	void aTaskIsJournalledBoundToItsSessionAndItsOutcomePublishedOnce() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(this.store));
		CallToolResult result = client.callTool("delete_record", Map.of("id", "r1", "durationMs", 300));
		assertThat(result.text()).isEqualTo("Deleted record r1");

		assertThat(completions()).singleElement().satisfies((event) -> {
			assertThat(event.upstream()).isEqualTo("tasks");
			assertThat(event.tool()).isEqualTo("delete_record");
			assertThat(event.status()).isEqualTo(McpTaskStatus.COMPLETED);
			assertThat(event.result()).isEqualTo(result);
			assertThat(event.failure()).isNull();
			assertThat(event.resumedAfterRestart()).isFalse();
		});
		String taskId = completions().get(0).taskId();
		McpTaskRecord row = this.store.find("tasks", taskId).orElseThrow();
		assertThat(row.status()).isEqualTo(McpTaskStatus.COMPLETED);
		assertThat(row.era()).isEqualTo(ProtocolEra.LEGACY);
		assertThat(row.owner()).isEqualTo(this.store.owner());
		assertThat(row.argumentsHash()).hasSize(64);
		assertThat(row.session()).as("a legacy task is bound to its session").isNotNull();
		assertThat(row.session().protocolVersion()).isEqualTo("2025-11-25");
		assertThat(row.outcome()).contains("Deleted record r1");
		assertThat(row.toString()).doesNotContain(row.session().sessionId());
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.store.unfinished("tasks")).isEmpty();
	}

	@Test
	void aToolThatFailsEndsItsTaskAsFailedWithItsResult() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(this.store));
		CallToolResult failed = client.callTool("failing_job", Map.of("durationMs", 100));
		assertThat(failed.isError()).isTrue();
		assertThat(completions()).singleElement().satisfies((event) -> {
			assertThat(event.status()).isEqualTo(McpTaskStatus.FAILED);
			assertThat(event.result()).isEqualTo(failed);
		});
	}

	@Test
	void aCallAnsweredDirectlyIsNotJournalled() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(this.store));
		assertThat(client.callTool("greet", Map.of("name", "x")).text()).isEqualTo("Hello, x!");
		assertThat(completions()).isEmpty();
	}

	@Test
	void aJournalThatCannotBeWrittenNeverFailsTheCall() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(new BrokenStore()));
		CallToolResult result = client.callTool("delete_record", Map.of("id", "r2", "durationMs", 200));
		assertThat(result.text()).isEqualTo("Deleted record r2");
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
	}

	@Test
	void aTaskAnotherProcessTookOverIsNotPublishedHere() {
		McpTaskStore lostLease = new DelegatingStore(this.store) {
			@Override
			public boolean update(McpTaskRecord task) {
				// another replica claimed the row meanwhile: every write of this process is refused
				return false;
			}
		};
		McpClient client = this.clients.client((builder) -> builder.taskStore(lostLease));
		assertThat(client.callTool("delete_record", Map.of("id", "r3", "durationMs", 200)).text())
			.isEqualTo("Deleted record r3");
		assertThat(completions()).isEmpty();
	}

	/** A journal whose database is down. */
	static final class BrokenStore extends DelegatingStore {

		BrokenStore() {
			super(McpTaskStore.inMemory());
		}

		@Override
		public void create(McpTaskRecord task) {
			throw new McpTaskStoreException(task.upstream(), "database down", null);
		}

		@Override
		public boolean update(McpTaskRecord task) {
			throw new McpTaskStoreException(task.upstream(), "database down", null);
		}

	}

	static class DelegatingStore implements McpTaskStore {

		private final McpTaskStore delegate;

		DelegatingStore(McpTaskStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public String owner() {
			return this.delegate.owner();
		}

		@Override
		public Duration lease() {
			return this.delegate.lease();
		}

		@Override
		public void create(McpTaskRecord task) {
			this.delegate.create(task);
		}

		@Override
		public boolean update(McpTaskRecord task) {
			return this.delegate.update(task);
		}

		@Override
		public boolean renew(String upstream, String taskId, Instant now) {
			return this.delegate.renew(upstream, taskId, now);
		}

		@Override
		public void release(String upstream, String taskId) {
			this.delegate.release(upstream, taskId);
		}

		@Override
		public List<McpTaskRecord> claim(Collection<String> upstreams, Instant now, int limit) {
			return this.delegate.claim(upstreams, now, limit);
		}

		@Override
		public Optional<McpTaskRecord> find(String upstream, String taskId) {
			return this.delegate.find(upstream, taskId);
		}

		@Override
		public List<McpTaskRecord> unfinished(String upstream) {
			return this.delegate.unfinished(upstream);
		}

		@Override
		public int purge(Instant endedBefore) {
			return this.delegate.purge(endedBefore);
		}

	}

}
