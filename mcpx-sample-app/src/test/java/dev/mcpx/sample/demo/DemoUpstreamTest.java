package dev.mcpx.sample.demo;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.mcpx.sample.SampleHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo upstream speaks MCP over Streamable HTTP as the official Java SDK does, and a
 * restart makes it forget every session. Plain HTTP on purpose: this proves the upstream,
 * not the mcpx client.
 * <p>
 * The port is chosen before the context starts (rather than {@code RANDOM_PORT}) so that
 * {@code mcpx.clients.demo.url} is a complete URL when the client's properties are bound,
 * which happens before the web server knows its port.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class DemoUpstreamTest {

	private static final SampleHttp app = SampleHttp.onFreePort();

	private static final JsonMapper json = JsonMapper.builder().build();

	private final AtomicInteger ids = new AtomicInteger();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		app.register(registry);
	}

	@Test
	void initializeAnswersJsonWithASessionId() {
		HttpResponse<String> response = post(null, request("initialize", initializeParams()));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		assertThat(response.headers().firstValue("Mcp-Session-Id")).hasValueSatisfying(
				(id) -> assertThat(id).isNotBlank());
		JsonNode result = read(response.body()).get("result");
		assertThat(result.get("serverInfo").get("name").asString()).isEqualTo("mcpx-demo-weather");
		assertThat(result.get("capabilities").has("tools")).isTrue();
	}

	@Test
	void toolsListShowsTheThreeToolsWithTheirAnnotations() {
		String session = openSession();
		HttpResponse<String> response = post(session, request("tools/list", Map.of()));
		assertThat(response.statusCode()).isEqualTo(200);
		Map<String, JsonNode> annotations = new HashMap<>();
		for (JsonNode tool : message(response).get("result").get("tools")) {
			annotations.put(tool.get("name").asString(), tool.get("annotations"));
		}
		assertThat(annotations).containsOnlyKeys("get_forecast", "set_alert_threshold", "delete_city");
		assertThat(annotations.get("get_forecast").get("readOnlyHint").asBoolean()).isTrue();
		assertThat(annotations.get("set_alert_threshold").get("idempotentHint").asBoolean()).isTrue();
		assertThat(annotations.get("set_alert_threshold").get("destructiveHint").asBoolean()).isFalse();
		assertThat(annotations.get("delete_city").get("destructiveHint").asBoolean()).isTrue();
	}

	@Test
	void toolCallsRunAndAreCounted() {
		String session = openSession();
		int before = executions().get("get_forecast").asInt();
		JsonNode result = message(post(session,
				request("tools/call", Map.of("name", "get_forecast", "arguments", Map.of("city", "oslo")))))
			.get("result");
		assertThat(result.get("isError").asBoolean()).isFalse();
		assertThat(result.get("content").get(0).get("text").asString()).startsWith("Oslo: 4 °C");
		assertThat(executions().get("get_forecast").asInt()).isEqualTo(before + 1);
	}

	@Test
	void promptAndResourceAreServed() {
		String session = openSession();
		JsonNode prompt = message(post(session,
				request("prompts/get", Map.of("name", "forecast_summary", "arguments", Map.of("city", "Tokyo")))))
			.get("result");
		assertThat(prompt.get("messages").get(0).get("content").get("text").asString()).contains("Tokyo");
		JsonNode resource = message(post(session, request("resources/read", Map.of("uri", "demo://cities"))))
			.get("result");
		assertThat(resource.get("contents").get(0).get("mimeType").asString()).isEqualTo("text/plain");
		assertThat(resource.get("contents").get(0).get("text").asString()).contains("Nairobi");
	}

	@Test
	void restartMakesTheUpstreamForgetEverySession() {
		String session = openSession();
		assertThat(post(session, request("tools/list", Map.of())).statusCode()).isEqualTo(200);

		JsonNode restarted = app.restartUpstream();
		assertThat(restarted.get("generation").asInt()).isGreaterThan(1);

		// 2025-11-25 transports §Session Management, rule 3: an unknown session id gets 404.
		assertThat(post(session, request("tools/list", Map.of())).statusCode()).isEqualTo(404);
		String fresh = openSession();
		assertThat(fresh).isNotEqualTo(session);
		assertThat(post(fresh, request("tools/list", Map.of())).statusCode()).isEqualTo(200);
	}

	@Test
	void upstreamsEndpointAnswersWithOrWithoutConfiguredClients() {
		HttpResponse<String> upstreams = send(HttpRequest.newBuilder(uri("/upstreams")).GET().build());
		assertThat(upstreams.statusCode()).isEqualTo(200);
		assertThat(read(upstreams.body()).isArray()).isTrue();
		HttpResponse<String> unknown = send(HttpRequest.newBuilder(uri("/upstreams/nowhere/tools")).GET().build());
		assertThat(unknown.statusCode()).isEqualTo(404);
	}

	private String openSession() {
		HttpResponse<String> response = post(null, request("initialize", initializeParams()));
		assertThat(response.statusCode()).isEqualTo(200);
		String session = response.headers().firstValue("Mcp-Session-Id").orElseThrow();
		HttpResponse<String> initialized = post(session,
				Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
		assertThat(initialized.statusCode()).isEqualTo(202);
		return session;
	}

	private JsonNode executions() {
		return read(send(HttpRequest.newBuilder(uri("/demo/executions")).GET().build()).body());
	}

	private Map<String, Object> request(String method, Map<String, Object> params) {
		return Map.of("jsonrpc", "2.0", "id", this.ids.incrementAndGet(), "method", method, "params", params);
	}

	private static Map<String, Object> initializeParams() {
		return Map.of("protocolVersion", "2025-11-25", "capabilities", Map.of(), "clientInfo",
				Map.of("name", "demo-upstream-tests", "version", "1.0.0"));
	}

	private HttpResponse<String> post(String session, Map<String, Object> message) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(DemoUpstream.PATH))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(message)));
		if (session != null) {
			request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
		}
		return send(request.build());
	}

	/** The one JSON-RPC message of a response, whether sent as JSON or as one SSE event. */
	private static JsonNode message(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(200);
		String type = response.headers().firstValue("Content-Type").orElse("");
		if (!type.startsWith("text/event-stream")) {
			return read(response.body());
		}
		StringBuilder data = new StringBuilder();
		for (String line : response.body().split("\r?\n")) {
			if (line.startsWith("data:")) {
				data.append(line.substring(5).strip());
			}
		}
		return read(data.toString());
	}

	private static JsonNode read(String body) {
		return json.readTree(body);
	}

	private static HttpResponse<String> send(HttpRequest request) {
		return app.send(request);
	}

	private static URI uri(String path) {
		return app.uri(path);
	}

}
