package dev.mcpx.autoconfigure.tasks;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import tools.jackson.databind.JsonNode;

import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.event.McpTaskResumedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.EmbeddedPostgresDatabase;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ResponseLosingProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's own restart (docs/architecture.md, "The task journal"): an application starts a task-backed call
 * with the JDBC journal and is killed mid-task in a process of its own ({@code destroyForcibly}: no graceful close,
 * its lease not given back); a second application on the same database takes the task up when the lease passes,
 * follows it in the session the task is bound to, and publishes its outcome once. The server counts one execution
 * and one {@code tools/call}. Against the project's 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}), whose tasks
 * span sessions, on a real PostgreSQL and on H2 (over TCP, so both processes share it); and against
 * {@code server-everything}, whose tasks are bound to the session that created them (2025-11-25
 * basic/utilities/tasks §Task ID Requirements: bound to the authorization context), so the second application
 * resumes that session from the journal and sends no {@code initialize}; when that session is gone too (the server
 * restarted), the task ends as lost, asked once, never in a loop. What {@code server-everything} saw is counted by a
 * proxy in front of it.
 */
class ApplicationRestartResumesTasksTest {

	@RegisterExtension
	static final EmbeddedPostgresDatabase postgres = new EmbeddedPostgresDatabase();

	private static Server h2;

	private NodePeer peer;

	private final List<AutoCloseable> started = new ArrayList<>();

	@BeforeAll
	static void startH2() throws Exception {
		h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
	}

	@AfterAll
	static void stopH2() {
		h2.stop();
	}

	@AfterEach
	void stop() throws Exception {
		for (int i = this.started.size() - 1; i >= 0; i--) {
			this.started.get(i).close();
		}
		if (this.peer != null) {
			this.peer.close();
		}
	}

	@Test
	void onPostgresTheTaskOfAKilledApplicationIsFinishedByTheNextOnceAndRanOnce() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		postgres.dropTable("MCPX_TASKS");
		killedMidTaskThenResumed(postgres.jdbcUrl(), "postgres", "", postgres.dataSource(), "pg-1");
	}

	@Test
	void onH2TheTaskOfAKilledApplicationIsFinishedByTheNextOnceAndRanOnce() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
		String url = "jdbc:h2:tcp://localhost:" + h2.getPort() + "/mem:restart-" + System.nanoTime()
				+ ";DB_CLOSE_DELAY=-1";
		killedMidTaskThenResumed(url, "sa", "", new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", ""), "h2-1");
	}

	@Test
	void aTaskOfServerEverythingIsFinishedInItsOwnSessionResumedFromTheJournalWithoutAnInitialize() throws Exception {
		this.peer = NodePeer.startEverything();
		ResponseLosingProxy proxy = ResponseLosingProxy.to(this.peer.port());
		this.started.add(proxy);
		postgres.dropTable("MCPX_TASKS");
		List<String> properties = properties(proxy.url("/mcp"), postgres.jdbcUrl(), "postgres", "");
		JdbcClient journal = JdbcClient.create(postgres.dataSource());

		killMidTask(properties, "simulate-research-query", "replicas", journal);
		Queue<McpEvent> events = startResumingApp(properties);

		await().atMost(Duration.ofSeconds(60)).until(() -> completions(events).size() > 0);
		Thread.sleep(1500);
		assertThat(completions(events)).singleElement().satisfies((event) -> {
			assertThat(event.status()).isEqualTo(McpTaskStatus.COMPLETED);
			assertThat(event.resumedAfterRestart()).isTrue();
			assertThat(event.tool()).isEqualTo("simulate-research-query");
			assertThat(event.result()).isNotNull();
			assertThat(event.result().text()).contains("# Research Report: replicas");
		});
		assertThat(events).filteredOn(McpTaskResumedEvent.class::isInstance)
			.singleElement()
			.satisfies((event) -> assertThat(((McpTaskResumedEvent) event).cause())
				.isEqualTo(McpTaskResumedEvent.Cause.APPLICATION_RESTARTED));
		assertThat(proxy.requests("tools/call")).as("the call was sent once").isEqualTo(1);
		assertThat(proxy.requests("initialize")).as("only the first application opened a session").isEqualTo(1);
		assertThat(proxy.requests("tasks/result")).as("the outcome was fetched once").isEqualTo(1);
		assertThat(journal.sql("SELECT STATUS FROM MCPX_TASKS").query(String.class).single()).isEqualTo("completed");
	}

	@Test
	void aTaskOfServerEverythingWhoseSessionARestartForgotEndsAsLostAskedOnce() throws Exception {
		this.peer = NodePeer.startEverything();
		ResponseLosingProxy proxy = ResponseLosingProxy.to(this.peer.port());
		this.started.add(proxy);
		postgres.dropTable("MCPX_TASKS");
		List<String> properties = properties(proxy.url("/mcp"), postgres.jdbcUrl(), "postgres", "");
		JdbcClient journal = JdbcClient.create(postgres.dataSource());

		killMidTask(properties, "simulate-research-query", "forgotten", journal);
		// the server restarts too: the session, and with it the task, are gone
		int port = this.peer.port();
		this.peer.close();
		this.peer = NodePeer.startEverything(port);
		Queue<McpEvent> events = startResumingApp(properties);

		await().atMost(Duration.ofSeconds(60)).until(() -> completions(events).size() > 0);
		Thread.sleep(1500);
		assertThat(completions(events)).singleElement().satisfies((event) -> {
			assertThat(event.status()).isEqualTo(McpTaskStatus.LOST);
			assertThat(event.resumedAfterRestart()).isTrue();
			assertThat(event.result()).isNull();
			assertThat(event.failure()).isNotNull();
			assertThat(event.failure().getMessage()).contains("may have run");
		});
		assertThat(events).noneMatch(McpTaskResumedEvent.class::isInstance);
		assertThat(proxy.requests("tools/call")).as("the call was sent once").isEqualTo(1);
		// the first application's session, and one new session in which the task was asked for once
		assertThat(proxy.requests("initialize")).isEqualTo(2);
		assertThat(proxy.requests("tasks/get")).as("asked in the old session, then once in the new")
			.isLessThanOrEqualTo(3);
		assertThat(journal.sql("SELECT STATUS FROM MCPX_TASKS").query(String.class).single()).isEqualTo("lost");
	}

	private void killedMidTaskThenResumed(String jdbcUrl, String user, String password, DataSource db, String record)
			throws Exception {
		List<String> properties = properties(this.peer.url(), jdbcUrl, user, password);
		JdbcClient journal = JdbcClient.create(db);
		killMidTask(properties, "delete_record", record, journal);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).as("still running on the server")
			.isLessThanOrEqualTo(1);

		Queue<McpEvent> all = startResumingApp(properties);
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		await().atMost(Duration.ofSeconds(60)).until(() -> !completions(all).isEmpty());
		Thread.sleep(1500);
		events.addAll(completions(all));
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.status()).isEqualTo(McpTaskStatus.COMPLETED);
			assertThat(event.resumedAfterRestart()).isTrue();
			assertThat(event.tool()).isEqualTo("delete_record");
			assertThat(event.result()).isNotNull();
			assertThat(event.result().text()).isEqualTo("Deleted record " + record);
		});
		JsonNode counts = this.peer.counts();
		assertThat(counts.at("/executions/delete_record").asInt()).as("the tool ran once").isEqualTo(1);
		assertThat(counts.at("/requests/tools~1call").asInt()).as("the call was sent once").isEqualTo(1);
		assertThat(journal.sql("SELECT STATUS FROM MCPX_TASKS").query(String.class).single()).isEqualTo("completed");
	}

	private static List<String> properties(String upstream, String jdbcUrl, String user, String password) {
		return List.of("--mcpx.clients.tasks.url=" + upstream, "--mcpx.clients.tasks.protocol=legacy",
				"--mcpx.tasks.store=jdbc", "--mcpx.tasks.jdbc.initialize-schema=always", "--mcpx.tasks.lease=2s",
				"--mcpx.tasks.resume-interval=500ms", "--spring.datasource.url=" + jdbcUrl,
				"--spring.datasource.username=" + user, "--spring.datasource.password=" + password);
	}

	/** Starts the first application, waits until its task is in the journal, working, and kills it. */
	private void killMidTask(List<String> properties, String tool, String record, JdbcClient journal) throws Exception {
		Process first = startKilledApp(properties, tool, record);
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> rows(journal) > 0);
		assertThat(journal.sql("SELECT STATUS FROM MCPX_TASKS").query(String.class).single()).isEqualTo("working");
		first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
	}

	/** Starts the application after the restart, in this JVM; every mcpx event it publishes is recorded. */
	private Queue<McpEvent> startResumingApp(List<String> properties) {
		Queue<McpEvent> events = new ConcurrentLinkedQueue<>();
		ConfigurableApplicationContext second = new SpringApplicationBuilder(ResumingApp.class)
			.web(WebApplicationType.NONE)
			.listeners((ApplicationListener<ApplicationEvent>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload && payload.getPayload() instanceof McpEvent mcp) {
					events.add(mcp);
				}
			})
			.run(properties.toArray(String[]::new));
		this.started.add(second);
		return events;
	}

	private static List<McpTaskCompletedEvent> completions(Queue<McpEvent> events) {
		return events.stream()
			.filter(McpTaskCompletedEvent.class::isInstance)
			.map(McpTaskCompletedEvent.class::cast)
			.toList();
	}

	private Process startKilledApp(List<String> properties, String tool, String record) throws Exception {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(KilledTaskApp.class.getName());
		command.addAll(properties);
		command.add("--task.tool=" + tool);
		command.add("--task.record=" + record);
		File log = Files.createTempFile("killed-task-app", ".log").toFile();
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
		this.started.add(() -> {
			process.destroyForcibly();
			Files.deleteIfExists(log.toPath());
		});
		return process;
	}

	private static int rows(JdbcClient journal) {
		try {
			return journal.sql("SELECT COUNT(*) FROM MCPX_TASKS").query(Integer.class).single();
		}
		catch (RuntimeException ex) {
			return 0; // the first application has not created the table yet
		}
	}

	/** The application after the restart. */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class ResumingApp {

	}

}
