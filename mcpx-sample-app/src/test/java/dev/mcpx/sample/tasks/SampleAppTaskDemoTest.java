package dev.mcpx.sample.tasks;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.mcpx.sample.SampleHttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The task demo as a plain start offers it (mcpx-sample-app/DEMO.md, "A task that outlives the application"), with no
 * profile: the reports upstream is served by the application itself, tasks are journalled in the embedded H2
 * database, and {@code POST /reports/<topic>} is a task-backed call whose outcome the application's
 * {@code @EventListener} hears ({@code GET /reports}). The server compiled the report once, and the journal holds its
 * one task, completed.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class SampleAppTaskDemoTest {

	private static final SampleHttp app = SampleHttp.onFreePort();

	private static final JsonMapper json = JsonMapper.shared();

	@TempDir
	static Path journal;

	@Autowired
	ReportServer reports;

	@Autowired
	JdbcClient jdbc;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		app.register(registry);
		registry.add("sample.journal", () -> journal.resolve("journal").toString());
	}

	@Test
	void aReportAskedForWithoutAProfileRunsAsAJournalledTaskAndItsOutcomeIsHeard() {
		// a plain start: the journal is UP; the reports upstream, never used yet, is not DOWN (UP after the call)
		assertThat(status("/actuator/health/mcpxTaskJournal")).isEqualTo("UP");
		assertThat(status("/actuator/health/mcpx/reports")).isEqualTo("UNKNOWN");

		HttpResponse<String> asked = app.send(HttpRequest.newBuilder(app.uri("/reports/defaults?seconds=1"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build());
		assertThat(asked.statusCode()).isEqualTo(202);

		await().atMost(Duration.ofSeconds(60)).until(() -> reports().size() == 1);
		JsonNode report = reports().get(0);
		assertThat(report.path("status").asString()).isEqualTo("completed");
		assertThat(report.path("text").asString()).isEqualTo("Report on defaults: 3 sources, 2 findings");
		assertThat(report.path("resumedAfterRestart").asBoolean()).isFalse();
		assertThat(status("/actuator/health/mcpx/reports")).isEqualTo("UP");
		assertThat(this.reports.executions()).as("tools/call run by the server").isEqualTo(1);
		JsonNode executions = json.readTree(app
			.send(HttpRequest.newBuilder(app.uri("/reports-upstream/executions")).GET().build())
			.body());
		assertThat(executions.path(ReportServer.TOOL).asInt()).isEqualTo(1);

		// the journal's one row: the task, written when its id arrived and closed with its outcome
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			Map<String, Object> row = this.jdbc.sql("SELECT UPSTREAM, TASK_ID, TOOL, STATUS FROM MCPX_TASKS")
				.query()
				.singleRow();
			assertThat(row).containsEntry("UPSTREAM", "reports")
				.containsEntry("TASK_ID", report.path("taskId").asString())
				.containsEntry("TOOL", ReportServer.TOOL)
				.containsEntry("STATUS", "completed");
		});
	}

	private static String status(String path) {
		return json.readTree(app.send(HttpRequest.newBuilder(app.uri(path)).GET().build()).body())
			.path("status")
			.asString();
	}

	private JsonNode reports() {
		return json.readTree(app.send(HttpRequest.newBuilder(app.uri("/reports")).GET().build()).body());
	}

}
