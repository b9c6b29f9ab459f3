package dev.mcpx.autoconfigure.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.event.McpTaskCreatedEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.testsupport.NodePeer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tasks as an operator sees them through the Actuator's web endpoints (docs/observability.md), in an application with
 * the JDBC journal on H2, against the project's 2025-11-25 task peer ({@link NodePeer#LEGACY_TASKS}):
 * {@code /actuator/mcpx} lists a task in flight under its upstream with its id redacted like a session id, the
 * counter {@value McpxTaskMetrics#NAME} counts it created and completed, and {@code /actuator/health/mcpxTaskJournal}
 * says whether the journal can be written. A journal that cannot be written is DOWN there while the call itself
 * succeeds and publishes no outcome.
 */
@SpringBootTest(classes = McpxTasksActuatorWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcpx.clients.tasks.protocol=legacy", "mcpx.tasks.store=jdbc",
				"spring.datasource.url=jdbc:h2:mem:actuator-tasks;DB_CLOSE_DELAY=-1",
				// one scan for orphans at start, none while the journal is broken on purpose
				"mcpx.tasks.resume-interval=1h",
				"management.endpoints.web.exposure.include=health,mcpx,metrics",
				"management.endpoint.health.show-details=always" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class McpxTasksActuatorWebTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static NodePeer peer;

	@LocalServerPort
	int port;

	@Autowired
	McpClients clients;

	@Autowired
	MeterRegistry meters;

	@Autowired
	DataSource dataSource;

	@Autowired
	App app;

	@BeforeAll
	static void startPeer() {
		peer = NodePeer.start(NodePeer.LEGACY_TASKS);
	}

	@AfterAll
	static void stopPeer() {
		peer.close();
	}

	@DynamicPropertySource
	static void upstream(DynamicPropertyRegistry registry) {
		registry.add("mcpx.clients.tasks.url", () -> peer.url());
	}

	@Test
	@Order(1)
	void aTaskInFlightIsListedRedactedThenCountedCreatedAndCompleted() throws Exception {
		McpClient client = this.clients.get("tasks");
		McpTask task = client.startTool("delete_record", Map.of("id", "w1", "durationMs", 2000, "pollIntervalMs", 200));

		JsonNode upstream = get("/actuator/mcpx").path("upstreams").path("tasks");
		assertThat(upstream.path("tasks").size()).isEqualTo(1);
		JsonNode inFlight = upstream.path("tasks").get(0);
		assertThat(inFlight.path("id").asString()).isEqualTo(task.id().substring(0, 4) + "…");
		assertThat(inFlight.path("tool").asString()).isEqualTo("delete_record");
		assertThat(inFlight.path("status").asString()).isEqualTo("working");
		assertThat(inFlight.path("ageMs").asLong()).isGreaterThanOrEqualTo(0);
		assertThat(inFlight.path("followedHere").asBoolean()).isTrue();
		assertThat(get("/actuator/mcpx/tasks").path("upstream").path("tasks").size()).isEqualTo(1);

		CallToolResult result = task.await(Duration.ofSeconds(30));
		assertThat(result.text()).isEqualTo("Deleted record w1");

		assertThat(get("/actuator/mcpx").path("upstreams").path("tasks").path("tasks").size()).isZero();
		JsonNode events = get("/actuator/mcpx/tasks").path("events");
		List<String> types = events.valueStream().map((event) -> event.path("type").asString()).toList();
		assertThat(types).containsSubsequence("McpTaskCreatedEvent", "McpTaskCompletedEvent");
		assertThat(events.valueStream().filter((event) -> event.has("taskId")))
			.allSatisfy((event) -> assertThat(event.path("taskId").asString()).isEqualTo(task.id().substring(0, 4) + "…"));
		for (String path : List.of("/actuator/mcpx", "/actuator/mcpx/tasks", "/actuator/health")) {
			assertThat(getText(path)).as(path).doesNotContain(task.id());
		}
		assertThat(this.app.events).filteredOn(McpTaskCompletedEvent.class::isInstance).singleElement()
			.satisfies((event) -> assertThat(((McpTaskCompletedEvent) event).status()).isEqualTo(McpTaskStatus.COMPLETED));

		assertThat(counted("created")).isEqualTo(1);
		assertThat(counted("completed")).isEqualTo(1);
		JsonNode metric = get("/actuator/metrics/" + McpxTaskMetrics.NAME + "?tag=upstream:tasks&tag=status:completed");
		assertThat(metric.path("measurements").get(0).path("value").asDouble()).isEqualTo(1.0);

		JsonNode journal = get("/actuator/health/mcpxTaskJournal");
		assertThat(journal.path("status").asString()).isEqualTo("UP");
		assertThat(journal.path("details").path("failures").asLong()).isZero();
		assertThat(peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
		assertThat(peer.counts().at("/requests/tools~1call").asInt()).isEqualTo(1);
	}

	@Test
	@Order(2)
	void aJournalThatCannotBeWrittenIsDownWhileTheCallSucceedsWithoutAnOutcomeEvent() throws Exception {
		JdbcClient.create(this.dataSource).sql("DROP TABLE MCPX_TASKS").update();
		int before = this.app.events.size();

		CallToolResult result = this.clients.get("tasks")
			.callTool("delete_record", Map.of("id", "w2", "durationMs", 300, "pollIntervalMs", 100));

		assertThat(result.text()).isEqualTo("Deleted record w2");
		List<McpEvent> since = this.app.events.subList(before, this.app.events.size());
		assertThat(since).filteredOn(McpTaskCreatedEvent.class::isInstance).singleElement()
			.satisfies((event) -> assertThat(((McpTaskCreatedEvent) event).journalled()).isFalse());
		assertThat(since).noneMatch(McpTaskCompletedEvent.class::isInstance);
		JsonNode journal = get("/actuator/health/mcpxTaskJournal");
		assertThat(journal.path("status").asString()).isEqualTo("DOWN");
		assertThat(journal.path("details").path("reason").asString()).contains("cannot be written")
			.contains("would not outlive this application");
		assertThat(journal.path("details").path("failures").asLong()).isPositive();
		assertThat(journal.path("details").path("lastFailure").asString()).startsWith("create failed");
		assertThat(get("/actuator/mcpx/tasks").path("upstream").path("tasksUnknown").asString())
			.isEqualTo("the task journal could not be read");
		assertThat(counted("created")).isEqualTo(2);
		assertThat(counted("completed")).as("no outcome published, none counted").isEqualTo(1);
		assertThat(peer.counts().at("/executions/delete_record").asInt()).isEqualTo(2);

		// the counter goes with its upstream
		this.clients.remove("tasks").get(10, TimeUnit.SECONDS);
		assertThat(this.meters.find(McpxTaskMetrics.NAME).tag("upstream", "tasks").counters()).isEmpty();
	}

	private double counted(String status) {
		return this.meters.find(McpxTaskMetrics.NAME).tag("upstream", "tasks").tag("status", status).counters()
			.stream()
			.mapToDouble((counter) -> counter.count())
			.sum();
	}

	private JsonNode get(String path) throws IOException, InterruptedException {
		return json.readTree(getText(path));
	}

	private String getText(String path) throws IOException, InterruptedException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
		// a component that is DOWN may be answered 503; the body is the same
		assertThat(response.statusCode()).as(path).isIn(200, 503);
		return response.body();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

		final List<McpEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void on(McpEvent event) {
			this.events.add(event);
		}

	}

}
