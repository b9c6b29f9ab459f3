package dev.mcpx.sample;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo story, told from the outside through HTTP only: the sample app's {@code demo}
 * client survives a restart of its upstream (2025-11-25 transports §Session Management,
 * rules 3–4: the 404 makes the client re-initialize once and retry), the timeline at
 * {@code GET /events} shows what happened, and {@code GET /demo/executions} shows that no
 * tool ran more often than it was called.
 * <p>
 * The application calls the demo upstream once at startup, and both tests share one
 * application, so each test measures what changed during it: execution counts as deltas,
 * events by their sequence number.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class SampleAppRecoveryTest {

	private static final SampleHttp app = SampleHttp.onFreePort();

	private static final JsonMapper json = JsonMapper.builder().build();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		app.register(registry);
	}

	@Test
	void aToolCallAfterAnUpstreamRestartAnswersAndRunsOnce() {
		JsonNode first = app.callTool("get_forecast", "{\"city\":\"Tokyo\"}");
		assertThat(first.get("isError").asBoolean()).isFalse();
		assertThat(first.get("text").asString()).isEqualTo("Tokyo: 17 °C, cloudy");
		long since = lastEventSeq();
		int before = executions("get_forecast");

		app.restartUpstream();
		JsonNode second = app.callTool("get_forecast", "{\"city\":\"Tokyo\"}");

		assertThat(second.get("isError").asBoolean()).isFalse();
		assertThat(second.get("text").asString()).isEqualTo("Tokyo: 17 °C, cloudy");
		List<JsonNode> events = eventsSince(since);
		assertThat(ofType(events, "session-expired")).singleElement().satisfies((expired) -> {
			assertThat(expired.get("upstream").asString()).isEqualTo("demo");
			assertThat(expired.get("method").asString()).isEqualTo("tools/call");
			assertThat(expired.get("status").asInt()).isEqualTo(404);
		});
		assertThat(ofType(events, "session-recovered")).singleElement().satisfies((recovered) -> {
			assertThat(recovered.get("upstream").asString()).isEqualTo("demo");
			assertThat(recovered.get("newGeneration").asLong())
				.isEqualTo(recovered.get("oldGeneration").asLong() + 1);
		});
		assertThat(ofType(events, "request-reissued")).singleElement()
			.satisfies((reissued) -> assertThat(reissued.get("tool").asString()).isEqualTo("get_forecast"));
		assertThat(ofType(events, "recovery-failed")).isEmpty();
		assertThat(ofType(events, "reissue-refused")).isEmpty();
		// Once before the restart, once after it: the call that met the 404 never ran.
		assertThat(executions("get_forecast")).isEqualTo(before + 1);
	}

	@Test
	void aDestructiveToolCalledAfterAnUpstreamRestartRunsExactlyOnce() {
		// The client already has a session: the application used it at startup.
		assertThat(app.callTool("get_forecast", "{\"city\":\"Nairobi\"}").get("isError").asBoolean()).isFalse();
		long since = lastEventSeq();
		int before = executions("delete_city");

		app.restartUpstream();
		JsonNode deleted = app.callTool("delete_city", "{\"city\":\"Nairobi\"}");

		assertThat(deleted.get("isError").asBoolean()).isFalse();
		assertThat(deleted.get("text").asString()).isEqualTo("Nairobi is deleted, with its forecast and alert");
		assertThat(executions("delete_city")).isEqualTo(before + 1);
		List<JsonNode> events = eventsSince(since);
		assertThat(ofType(events, "session-expired")).hasSize(1);
		assertThat(ofType(events, "session-recovered")).hasSize(1);
		// The 404 proves the server did not run it, so re-sending it is safe, even destructive.
		assertThat(ofType(events, "request-reissued")).singleElement().satisfies((reissued) -> {
			assertThat(reissued.get("tool").asString()).isEqualTo("delete_city");
			assertThat(reissued.get("cause").asString()).isEqualTo("SESSION_EXPIRED");
		});
	}

	@Test
	void theTimelineNamesNoSessionIdInFull() {
		String first = app.callTool("get_forecast", "{\"city\":\"Lisbon\"}").get("text").asString();
		assertThat(first).startsWith("Lisbon");
		long since = lastEventSeq();
		app.restartUpstream();
		app.callTool("get_forecast", "{\"city\":\"Lisbon\"}");
		JsonNode expired = ofType(eventsSince(since), "session-expired").get(0);
		String sessionId = expired.get("sessionId").asString();
		// The SDK's session ids are UUIDs (36 characters); the event carries only a prefix.
		assertThat(sessionId).hasSizeLessThan(36);
	}

	private int executions(String tool) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/demo/executions")).GET().build());
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body()).get(tool).asInt();
	}

	private List<JsonNode> events() {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/events")).GET().build());
		assertThat(response.statusCode()).isEqualTo(200);
		List<JsonNode> events = new ArrayList<>();
		json.readTree(response.body()).forEach(events::add);
		return events;
	}

	private long lastEventSeq() {
		List<JsonNode> events = events();
		return events.isEmpty() ? 0 : events.get(events.size() - 1).get("seq").asLong();
	}

	private List<JsonNode> eventsSince(long seq) {
		return events().stream().filter((event) -> event.get("seq").asLong() > seq).toList();
	}

	private static List<JsonNode> ofType(List<JsonNode> events, String type) {
		return events.stream().filter((event) -> type.equals(event.get("type").asString())).toList();
	}

	private static HttpResponse<String> send(HttpRequest request) {
		return app.send(request);
	}

	private static URI uri(String path) {
		return app.uri(path);
	}

}
