package dev.mcpx.sample.tasks;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.PayloadApplicationEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.sample.McpxSampleApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What DEMO.md's task walk-through claims ("A task that outlives the application"): the sample app, with the
 * {@code tasks} profile, asks the reports upstream (a process of its own, here in the test's JVM) for a report, which
 * runs as a task; the application is killed with SIGKILL ({@code destroyForcibly}, as {@code kill -9}) while the task
 * runs; started again on the same H2 journal, it takes the task up and the report arrives, published once, and the
 * upstream compiled it once.
 */
class SampleAppTaskRestartTest {

	private static final JsonMapper json = JsonMapper.shared();

	private final HttpClient http = HttpClient.newHttpClient();

	private final List<AutoCloseable> started = new ArrayList<>();

	@TempDir
	Path journal;

	@AfterEach
	void stop() throws Exception {
		for (int i = this.started.size() - 1; i >= 0; i--) {
			this.started.get(i).close();
		}
	}

	@Test
	void aReportAskedForBeforeTheApplicationWasKilledArrivesOnceAfterItsRestart() throws Exception {
		ReportUpstream upstream = ReportUpstream.start(0);
		this.started.add(upstream);
		int port = freePort();
		List<String> properties = List.of("--spring.profiles.active=tasks", "--server.port=" + port,
				"--server.address=127.0.0.1", "--mcpx.clients.demo.url=http://127.0.0.1:" + port + "/demo/mcp",
				"--sample.reports-port=" + upstream.port(), "--sample.journal=" + this.journal.resolve("journal"),
				"--mcpx.tasks.lease=2s", "--mcpx.tasks.resume-interval=500ms");

		Process first = startInItsOwnProcess(properties);
		await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> up(port));
		HttpResponse<String> asked = send(port, HttpRequest.newBuilder(uri(port, "/reports/restarts"))
			.POST(HttpRequest.BodyPublishers.noBody()));
		assertThat(asked.statusCode()).isEqualTo(202);
		// the task is created and journalled, then the application is killed while it runs
		await().atMost(Duration.ofSeconds(60)).until(() -> inFlight(port) == 1);
		assertThat(upstream.executions()).isEqualTo(1);
		first.destroyForcibly().waitFor(10, TimeUnit.SECONDS);

		Queue<McpTaskCompletedEvent> outcomes = new ConcurrentLinkedQueue<>();
		ConfigurableApplicationContext second = new SpringApplicationBuilder(McpxSampleApplication.class)
			.listeners((ApplicationListener<ApplicationEvent>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload
						&& payload.getPayload() instanceof McpTaskCompletedEvent completed) {
					outcomes.add(completed);
				}
			})
			.run(properties.toArray(String[]::new));
		this.started.add(second);

		await().atMost(Duration.ofSeconds(90)).until(() -> !outcomes.isEmpty());
		Thread.sleep(1500);
		assertThat(outcomes).singleElement().satisfies((outcome) -> {
			assertThat(outcome.status()).isEqualTo(McpTaskStatus.COMPLETED);
			assertThat(outcome.resumedAfterRestart()).isTrue();
			assertThat(outcome.tool()).isEqualTo(ReportUpstream.TOOL);
			assertThat(outcome.result()).isNotNull();
			assertThat(outcome.result().text()).isEqualTo("Report on restarts: 3 sources, 2 findings");
		});
		JsonNode reports = json.readTree(send(port, HttpRequest.newBuilder(uri(port, "/reports")).GET()).body());
		assertThat(reports.size()).isEqualTo(1);
		assertThat(reports.get(0).path("text").asString()).isEqualTo("Report on restarts: 3 sources, 2 findings");
		assertThat(reports.get(0).path("resumedAfterRestart").asBoolean()).isTrue();
		assertThat(upstream.executions()).as("compiled once").isEqualTo(1);
	}

	private Process startInItsOwnProcess(List<String> properties) throws IOException {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(McpxSampleApplication.class.getName());
		command.addAll(properties);
		File log = Files.createTempFile("sample-app-killed", ".log").toFile();
		Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
		this.started.add(() -> {
			process.destroyForcibly();
			Files.deleteIfExists(log.toPath());
		});
		return process;
	}

	private boolean up(int port) {
		try {
			return send(port, HttpRequest.newBuilder(uri(port, "/actuator/health")).GET()).statusCode() == 200;
		}
		catch (RuntimeException ex) {
			return false; // not listening yet
		}
	}

	/** The reports upstream's tasks in flight, as {@code /actuator/mcpx} lists them from the journal. */
	private int inFlight(int port) {
		JsonNode mcpx = json.readTree(send(port, HttpRequest.newBuilder(uri(port, "/actuator/mcpx")).GET()).body());
		return mcpx.path("upstreams").path("reports").path("tasks").size();
	}

	private HttpResponse<String> send(int port, HttpRequest.Builder request) {
		try {
			return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static URI uri(int port, String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
