package dev.mcpx.client.tasks;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskReference;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@code startTool} gives an {@link McpTask}, a handle on a 2025-11-25 task (basic/utilities/tasks)
 * that outlives the caller's wait; {@code resumeTask} takes one up from its serializable
 * {@link McpTaskReference}, in another client too, polling the task's own session without an
 * {@code initialize}. Against the project's task peer ({@link NodePeer#LEGACY_TASKS}), counted on
 * the server: the tool runs once and its {@code tools/call} is sent once.
 */
class McpTaskTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private NodePeer peer;

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("tasks", URI.create(this.peer.url()))
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
	void aStartedToolIsATaskOfTheServerAwaitedToItsResult() {
		McpTask task = this.clients.client().startTool("delete_record", Map.of("id", "t1", "durationMs", 1500));

		assertThat(task.id()).isEqualTo(this.peer.admin("GET", "tasks").at("/tasks/0/taskId").asString());
		assertThat(task.upstream()).isEqualTo("tasks");
		assertThat(task.tool()).isEqualTo("delete_record");
		assertThat(task.status()).isEqualTo(McpTaskStatus.WORKING);
		assertThat(task.await(TIMEOUT).text()).isEqualTo("Deleted record t1");
		assertThat(task.status()).isEqualTo(McpTaskStatus.COMPLETED);
		assertThat(task.await(TIMEOUT).text()).isEqualTo("Deleted record t1");
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tasks~1result").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void anOptionalReadOnlyToolIsStartedAsATaskToo() {
		McpTask task = this.clients.client().startTool("slow_compute", Map.of("seconds", 0, "label", "x"));
		assertThat(task.reference().direct()).isFalse();
		assertThat(task.await(TIMEOUT).text()).startsWith("Computed x");
		assertThat(this.peer.counts().at("/augmented/slow_compute").asInt()).isEqualTo(1);
	}

	@Test
	void aToolWithoutTaskSupportGivesATaskCompletedByTheDirectCall() {
		McpClient client = this.clients.client();
		McpTask task = client.startTool("greet", Map.of("name", "y"));

		assertThat(task.status()).isEqualTo(McpTaskStatus.COMPLETED);
		assertThat(task.id()).startsWith("mcpx-direct-");
		assertThat(task.await(Duration.ofMillis(1)).text()).isEqualTo("Hello, y!");
		assertThat(task.reference().direct()).isTrue();
		assertThatIllegalArgumentException().isThrownBy(() -> client.resumeTask(task.reference()))
			.withMessageContaining("answered directly");
		assertThat(this.peer.counts().at("/augmented/greet").asInt()).isZero();
	}

	@Test
	void anAwaitThatRunsOutLeavesTheTaskRunningToBeAwaitedAgain() {
		McpTask task = this.clients.client()
			.startTool("delete_record", Map.of("id", "t2", "durationMs", 2500, "pollIntervalMs", 100));

		assertThatExceptionOfType(McpTimeoutException.class).isThrownBy(() -> task.await(Duration.ofMillis(500)))
			.withMessageContaining(task.id())
			.withMessageContaining("keeps running");
		assertThat(this.peer.counts().at("/tasks/working").asInt()).isEqualTo(1);
		assertThat(task.await(TIMEOUT).text()).isEqualTo("Deleted record t2");
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aCancelledTaskIsCancelledOnTheServer() {
		McpTask task = this.clients.client().startTool("delete_record", Map.of("id", "t3", "durationMs", 60_000));

		assertThat(task.cancel()).isTrue();
		assertThat(task.status()).isEqualTo(McpTaskStatus.CANCELLED);
		assertThat(this.peer.counts().at("/tasks/cancelled").asInt()).isEqualTo(1);
		assertThat(task.cancel()).isFalse();
		assertThat(this.peer.counts().at("/requests/tasks~1cancel").asInt()).isEqualTo(1);
	}

	@Test
	void aSerializedReferenceIsResumedByAnotherClientInTheTasksSessionWithoutAnInitialize() throws Exception {
		McpTask started = this.clients.client().startTool("delete_record", Map.of("id", "t4", "durationMs", 800));
		McpTaskReference reference = roundTrip(started.reference());
		assertThat(reference).isEqualTo(started.reference());
		assertThat(reference.session()).isNotNull();
		assertThat(reference.toString()).doesNotContain(reference.session().sessionId());

		McpTask resumed = this.clients.client().resumeTask(reference);

		assertThat(resumed.id()).isEqualTo(started.id());
		assertThat(resumed.await(TIMEOUT).text()).isEqualTo("Deleted record t4");
		assertThat(this.peer.counts().path("initialize").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aReferenceWhoseSessionExpiredIsAskedForOnceInANewSession() {
		McpTask started = this.clients.client().startTool("delete_record", Map.of("id", "t5", "durationMs", 800));
		this.peer.forgetSessions();

		McpTask resumed = this.clients.client().resumeTask(started.reference());

		assertThat(resumed.await(TIMEOUT).text()).isEqualTo("Deleted record t5");
		assertThat(this.peer.counts().path("initialize").asInt()).isEqualTo(2);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
	}

	@Test
	void aReferenceToAForgottenTaskIsLostNamingItsId() {
		McpTask started = this.clients.client().startTool("delete_record", Map.of("id", "t6", "durationMs", 60_000));
		this.peer.admin("POST", "forget-tasks");

		assertThatExceptionOfType(McpTaskLostException.class)
			.isThrownBy(() -> this.clients.client().resumeTask(started.reference()))
			.withMessageContaining(started.id());
		assertThatExceptionOfType(McpTaskLostException.class).isThrownBy(started::status);
		assertThat(started.status()).isEqualTo(McpTaskStatus.LOST);
		assertThat(this.peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
	}

	@Test
	void aReferenceOfAnotherUpstreamIsRefused() {
		McpTaskReference elsewhere = new McpTaskReference("other", "id-1", "delete_record", false, null);
		assertThatIllegalArgumentException().isThrownBy(() -> this.clients.client().resumeTask(elsewhere))
			.withMessageContaining("'other'");
	}

	private static McpTaskReference roundTrip(McpTaskReference reference) throws Exception {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(reference);
		}
		try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
			return (McpTaskReference) in.readObject();
		}
	}

}
