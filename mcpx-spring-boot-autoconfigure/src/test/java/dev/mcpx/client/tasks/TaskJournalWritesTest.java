package dev.mcpx.client.tasks;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A client with a task journal ({@link McpTaskStore}) writes each task it starts, as the store's
 * contract asks: a row held by this process and bound to the task's session when the task id
 * arrives, its outcome when it ends, and one {@link McpTaskCompletedEvent} for that ending write;
 * a journal that cannot be written never fails the call. Against the project's task peer
 * ({@link NodePeer#LEGACY_TASKS}).
 */
class TaskJournalWritesTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private final McpTaskStore store = McpTaskStore.inMemory();

	private NodePeer peer;

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("journal", URI.create(this.peer.url()))
		.protocol(ProtocolMode.LEGACY)
		.requestTimeout(TIMEOUT));

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void aCallThatBecameATaskIsWrittenAndEndedWithItsOutcomeAndPublishedOnce() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(this.store));

		client.callTool("delete_record", Map.of("id", "j1", "durationMs", 300));

		String taskId = this.peer.admin("GET", "tasks").at("/tasks/0/taskId").asString();
		McpTaskRecord row = this.store.find("journal", taskId).orElseThrow();
		assertThat(row.status()).isEqualTo(McpTaskStatus.COMPLETED);
		assertThat(row.tool()).isEqualTo("delete_record");
		assertThat(row.outcome()).contains("Deleted record j1");
		assertThat(row.session()).isNotNull();
		assertThat(row.arguments()).isNull();
		assertThat(row.argumentsHash()).hasSize(64);
		List<McpTaskCompletedEvent> completed = this.clients.events(McpTaskCompletedEvent.class);
		assertThat(completed).singleElement().satisfies((event) -> {
			assertThat(event.taskId()).isEqualTo(taskId);
			assertThat(event.status()).isEqualTo(McpTaskStatus.COMPLETED);
			assertThat(event.result().text()).isEqualTo("Deleted record j1");
			assertThat(event.resumedAfterRestart()).isFalse();
		});
	}

	@Test
	void aStartedTaskIsHeldByThisProcessWhileItRunsAndEndedWhenAwaited() {
		McpTask task = this.clients.client((builder) -> builder.taskStore(this.store))
			.startTool("delete_record", Map.of("id", "j2", "durationMs", 1500));

		McpTaskRecord running = this.store.find("journal", task.id()).orElseThrow();
		assertThat(running.status().isTerminal()).isFalse();
		assertThat(running.owner()).isEqualTo(this.store.owner());
		assertThat(this.store.unfinished("journal")).hasSize(1);

		assertThat(task.await(TIMEOUT).text()).isEqualTo("Deleted record j2");
		assertThat(this.store.find("journal", task.id()).orElseThrow().status()).isEqualTo(McpTaskStatus.COMPLETED);
		assertThat(this.store.unfinished("journal")).isEmpty();
		assertThat(this.clients.events(McpTaskCompletedEvent.class)).hasSize(1);
	}

	@Test
	void aTaskTheServerForgotIsEndedAsLost() {
		McpTask task = this.clients.client((builder) -> builder.taskStore(this.store))
			.startTool("delete_record", Map.of("id", "j3", "durationMs", 60_000));
		this.peer.admin("POST", "forget-tasks");

		assertThatExceptionOfType(McpTaskLostException.class).isThrownBy(() -> task.await(TIMEOUT));
		assertThat(this.store.find("journal", task.id()).orElseThrow().status()).isEqualTo(McpTaskStatus.LOST);
		assertThat(this.clients.events(McpTaskCompletedEvent.class)).singleElement()
			.satisfies((event) -> assertThat(event.status()).isEqualTo(McpTaskStatus.LOST));
	}

	@Test
	void aJournalThatCannotBeWrittenNeverFailsTheCall() {
		McpClient client = this.clients.client((builder) -> builder.taskStore(new DownStore()));

		assertThat(client.callTool("delete_record", Map.of("id", "j4", "durationMs", 200)).text())
			.isEqualTo("Deleted record j4");
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(this.clients.events(McpTaskCompletedEvent.class)).isEmpty();
	}

	/** A journal whose database is down. */
	private static final class DownStore implements McpTaskStore {

		@Override
		public String owner() {
			return "down";
		}

		@Override
		public Duration lease() {
			return DEFAULT_LEASE;
		}

		@Override
		public void create(McpTaskRecord task) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

		@Override
		public boolean update(McpTaskRecord task) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

		@Override
		public boolean renew(String upstream, String taskId, Instant now) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

		@Override
		public void release(String upstream, String taskId) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

		@Override
		public List<McpTaskRecord> claim(Collection<String> upstreams, Instant now, int limit) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

		@Override
		public Optional<McpTaskRecord> find(String upstream, String taskId) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

		@Override
		public List<McpTaskRecord> unfinished(String upstream) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

		@Override
		public int purge(Instant endedBefore) {
			throw new McpTaskStoreException("journal", "the database is down", null);
		}

	}

}
