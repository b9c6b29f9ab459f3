package dev.mcpx.autoconfigure.tasks;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.testsupport.EmbeddedPostgresDatabase;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two replicas of an application, two application contexts with the JDBC journal on one real PostgreSQL, take up 50
 * tasks a process that is gone left in the journal (docs/architecture.md, "The task journal"): each task is followed
 * by one replica at a time and its outcome published once, by one of them; when one replica dies holding leases (its
 * resumption halted, as a process that dies gives nothing back), the other takes its tasks over once the leases
 * pass. Counted in the events of both contexts, in the journal's rows and on the server (the project's 2025-11-25
 * task peer, {@link NodePeer#LEGACY_TASKS}): one execution and one {@code tools/call} per task.
 */
class TwoReplicasShareTheJournalTest {

	private static final int ORPHANS = 50;

	@RegisterExtension
	static final EmbeddedPostgresDatabase postgres = new EmbeddedPostgresDatabase();

	private NodePeer peer;

	private final List<ConfigurableApplicationContext> replicas = new ArrayList<>();

	private McpClient starter;

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		postgres.dropTable("MCPX_TASKS");
		new TaskJournalSchemaInitializer(postgres.dataSource(), "MCPX_TASKS",
				McpxTasksProperties.SchemaInitialization.ALWAYS)
			.initializeDatabase();
	}

	@AfterEach
	void stop() {
		for (int i = this.replicas.size() - 1; i >= 0; i--) {
			this.replicas.get(i).close();
		}
		if (this.starter != null) {
			this.starter.close();
		}
		this.peer.close();
	}

	@Test
	void fiftyOrphansAreEachFinishedOnceAcrossTwoReplicasAndADeadReplicasLeasesAreTakenOver() {
		Set<String> orphans = orphans();
		Queue<McpEvent> first = new ConcurrentLinkedQueue<>();
		Queue<McpEvent> second = new ConcurrentLinkedQueue<>();
		ConfigurableApplicationContext a = replica(first);
		await().atMost(Duration.ofSeconds(60)).until(() -> resumed(first).size() >= 3);
		ConfigurableApplicationContext b = replica(second);
		await().atMost(Duration.ofSeconds(60)).until(() -> followed(b) > 0);

		// two of the first replica's tasks finish on the server; then it dies, following others
		finish(resumed(first).subList(0, 2));
		await().atMost(Duration.ofSeconds(60)).until(() -> completions(first).size() >= 2);
		assertThat(followed(a)).isPositive();
		a.getBean(TaskJournalResumption.class).resumer().halt();

		// then every task finishes on the server
		finish(orphans);
		await().atMost(Duration.ofSeconds(120))
			.until(() -> completions(first).size() + completions(second).size() >= ORPHANS);
		await().pollDelay(Duration.ofMillis(1500)).until(() -> true);
		// what the dead replica had taken up and never finished
		Set<String> heldByTheDead = new HashSet<>(resumed(first));
		heldByTheDead.removeAll(completions(first));

		List<String> published = new ArrayList<>(completions(first));
		published.addAll(completions(second));
		assertThat(published).as("each outcome published once, by one replica").hasSize(ORPHANS)
			.doesNotHaveDuplicates()
			.containsExactlyInAnyOrderElementsOf(orphans);
		assertThat(completions(first)).isNotEmpty();
		assertThat(completions(second)).isNotEmpty();
		assertThat(heldByTheDead).as("the dead replica held leases").isNotEmpty();
		assertThat(completions(second)).as("its tasks were taken over").containsAll(heldByTheDead);
		assertThat(resumed(second)).containsAll(heldByTheDead);
		assertThat(first).filteredOn(McpTaskCompletedEvent.class::isInstance)
			.allSatisfy((event) -> assertThat(((McpTaskCompletedEvent) event).status()).isEqualTo(McpTaskStatus.COMPLETED));
		assertThat(second).filteredOn(McpTaskCompletedEvent.class::isInstance)
			.allSatisfy((event) -> assertThat(((McpTaskCompletedEvent) event).resumedAfterRestart()).isTrue());

		JdbcClient journal = JdbcClient.create(postgres.dataSource());
		assertThat(journal.sql("SELECT COUNT(*) FROM MCPX_TASKS").query(Integer.class).single()).isEqualTo(ORPHANS);
		assertThat(journal.sql("SELECT STATUS FROM MCPX_TASKS").query(String.class).list()).containsOnly("completed");
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/executions/delete_record").asInt()).as("each tool ran once").isEqualTo(ORPHANS);
		assertThat(counts.at("/requests/tools~1call").asInt()).as("each call was sent once").isEqualTo(ORPHANS);
	}

	/**
	 * Starts 50 tasks on the server, each working until the test finishes it, and leaves their rows in the journal as a
	 * process that died right after would: held by an owner that is gone, whose leases pass within a second.
	 */
	private Set<String> orphans() {
		McpTaskStore dead = new JdbcMcpTaskStore(postgres.dataSource(), "MCPX_TASKS", Duration.ofSeconds(1), null, false);
		Set<String> ids = new HashSet<>();
		// its session stays open on the server, as a process's that died would until the server expires it
		this.starter = McpClient.builder("tasks", URI.create(this.peer.url()))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(10))
			.build();
		Instant now = Instant.now();
		for (int i = 0; i < ORPHANS; i++) {
			McpTask task = this.starter.startTool("delete_record",
					Map.of("id", "o-" + i, "durationMs", 600_000, "pollIntervalMs", 200));
			Instant created = now.plusMillis(i);
			dead.create(McpTaskRecord
				.created("tasks", task.id(), "delete_record", ProtocolEra.LEGACY, McpTaskStatus.WORKING,
						McpTaskRecord.argumentsHash("{}"), created, dead.owner(), created.plusSeconds(1))
				.withSession(task.reference().session()));
			ids.add(task.id());
		}
		return ids;
	}

	/** Ends the work of tasks on the server now (each works ten minutes unless told). */
	private void finish(Iterable<String> taskIds) {
		for (String taskId : taskIds) {
			this.peer.admin("finish", JsonMapper.shared().createObjectNode().put("taskId", taskId));
		}
	}

	private ConfigurableApplicationContext replica(Queue<McpEvent> events) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Replica.class)
			.web(WebApplicationType.NONE)
			.listeners((ApplicationListener<ApplicationEvent>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload && payload.getPayload() instanceof McpEvent mcp) {
					events.add(mcp);
				}
			})
			.run("--mcpx.clients.tasks.url=" + this.peer.url(), "--mcpx.clients.tasks.protocol=legacy",
					"--mcpx.tasks.store=jdbc", "--mcpx.tasks.jdbc.initialize-schema=never", "--mcpx.tasks.lease=2s",
					"--mcpx.tasks.resume-interval=300ms", "--spring.datasource.url=" + postgres.jdbcUrl(),
					"--spring.datasource.username=postgres", "--spring.datasource.password=");
		this.replicas.add(context);
		return context;
	}

	private static int followed(ConfigurableApplicationContext replica) {
		return replica.getBean(TaskJournalResumption.class).resumer().followedTasks();
	}

	private static List<String> completions(Queue<McpEvent> events) {
		return events.stream()
			.filter(McpTaskCompletedEvent.class::isInstance)
			.map((event) -> ((McpTaskCompletedEvent) event).taskId())
			.toList();
	}

	private static List<String> resumed(Queue<McpEvent> events) {
		return events.stream()
			.filter((event) -> event instanceof McpTaskResumedEvent resumed
					&& resumed.cause() == McpTaskResumedEvent.Cause.APPLICATION_RESTARTED)
			.map((event) -> ((McpTaskResumedEvent) event).taskId())
			.toList();
	}

	/** A replica of the application. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Replica {

	}

}
