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

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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

import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's own restart (docs/architecture.md, "The task journal"): an application starts a task-backed call
 * with the JDBC journal and is killed mid-task in a process of its own ({@code destroyForcibly}: no graceful close,
 * its lease not given back); a second application on the same database takes the task up when the lease passes,
 * follows it in the session the task is bound to, and publishes its outcome once. The server counts one execution
 * and one {@code tools/call}. Against the project's 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}), on a real
 * PostgreSQL and on H2 (over TCP, so both processes share it).
 */
class ApplicationRestartResumesTasksTest {

	private static EmbeddedPostgres postgres;

	private static Server h2;

	private NodePeer peer;

	private final List<AutoCloseable> started = new ArrayList<>();

	@BeforeAll
	static void startDatabases() throws Exception {
		postgres = EmbeddedPostgres.builder().start();
		h2 = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
	}

	@AfterAll
	static void stopDatabases() throws Exception {
		postgres.close();
		h2.stop();
	}

	@BeforeEach
	void startPeer() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
	}

	@AfterEach
	void stop() throws Exception {
		for (AutoCloseable closeable : this.started) {
			closeable.close();
		}
		this.peer.close();
	}

	@Test
	void onPostgresTheTaskOfAKilledApplicationIsFinishedByTheNextOnceAndRanOnce() throws Exception {
		String url = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
		JdbcClient.create(postgres.getPostgresDatabase()).sql("DROP TABLE IF EXISTS MCPX_TASKS").update();
		killedMidTaskThenResumed(url, "postgres", "", postgres.getPostgresDatabase(), "pg-1");
	}

	@Test
	void onH2TheTaskOfAKilledApplicationIsFinishedByTheNextOnceAndRanOnce() throws Exception {
		String url = "jdbc:h2:tcp://localhost:" + h2.getPort() + "/mem:restart-" + System.nanoTime()
				+ ";DB_CLOSE_DELAY=-1";
		killedMidTaskThenResumed(url, "sa", "", new SimpleDriverDataSource(new org.h2.Driver(), url, "sa", ""), "h2-1");
	}

	private void killedMidTaskThenResumed(String jdbcUrl, String user, String password, DataSource db, String record)
			throws Exception {
		List<String> properties = List.of("--mcpx.clients.tasks.url=" + this.peer.url(),
				"--mcpx.clients.tasks.protocol=legacy", "--mcpx.tasks.store=jdbc",
				"--mcpx.tasks.jdbc.initialize-schema=always", "--mcpx.tasks.lease=2s",
				"--mcpx.tasks.resume-interval=500ms", "--spring.datasource.url=" + jdbcUrl,
				"--spring.datasource.username=" + user, "--spring.datasource.password=" + password);

		Process first = startKilledApp(properties, record);
		JdbcClient journal = JdbcClient.create(db);
		await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> rows(journal) > 0);
		assertThat(journal.sql("SELECT STATUS FROM MCPX_TASKS").query(String.class).single()).isEqualTo("working");
		first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		assertThat(this.peer.counts().at("/executions/delete_record").asInt()).as("still running on the server")
			.isLessThanOrEqualTo(1);

		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		ConfigurableApplicationContext second = new SpringApplicationBuilder(ResumingApp.class)
			.web(WebApplicationType.NONE)
			.listeners((ApplicationListener<ApplicationEvent>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload
						&& payload.getPayload() instanceof McpTaskCompletedEvent completed) {
					events.add(completed);
				}
			})
			.run(properties.toArray(String[]::new));
		this.started.add(second);

		await().atMost(Duration.ofSeconds(60)).until(() -> !events.isEmpty());
		Thread.sleep(1500);
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

	private Process startKilledApp(List<String> properties, String record) throws Exception {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(KilledTaskApp.class.getName());
		command.addAll(properties);
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
