package dev.mcpx.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the {@link JavaSdkServer} fixture over raw HTTP, so interop tests can trust its
 * counts and its restart. Also pins down the SDK server's wire behaviour that mcpx's
 * recovery relies on (2025-11-25 transports §Session Management).
 */
class JavaSdkServerTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpClient http = HttpClient.newHttpClient();

	private JavaSdkServer server;

	private int nextId;

	@AfterEach
	void close() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void listensOnLoopbackAtAFreePort() {
		this.server = JavaSdkServer.start();
		assertThat(this.server.url()).matches("http://127\\.0\\.0\\.1:\\d+/mcp");
		assertThat(this.server.generation()).isEqualTo(1);
	}

	@Test
	void initializeGivesASessionIdAndIsCounted() throws Exception {
		this.server = JavaSdkServer.start();
		HttpResponse<String> initialize = rpc(null, "initialize", initializeParams());
		assertThat(initialize.statusCode()).isEqualTo(200);
		assertThat(initialize.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		String session = initialize.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(session).isNotBlank();
		assertThat(json.readTree(initialize.body()).at("/result/serverInfo/name").asString())
			.isEqualTo("java-sdk-test-server");

		HttpResponse<String> initialized = notify(session, "notifications/initialized");
		assertThat(initialized.statusCode()).isEqualTo(202);

		assertThat(this.server.initializeCount()).isEqualTo(1);
		assertThat(this.server.requestCount("notifications/initialized")).isEqualTo(1);
	}

	@Test
	void defaultToolsCarryTheirAnnotationsAndExecutionsAreCounted() throws Exception {
		this.server = JavaSdkServer.start();
		String session = openSession();

		HttpResponse<String> list = rpc(session, "tools/list", Map.of());
		assertThat(list.statusCode()).isEqualTo(200);
		assertThat(list.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		JsonNode tools = result(list).get("tools");
		assertThat(tools).hasSize(3);
		assertThat(annotation(tools, "echo", "readOnlyHint")).isTrue();
		assertThat(annotation(tools, "set_value", "idempotentHint")).isTrue();
		assertThat(annotation(tools, "delete_item", "destructiveHint")).isTrue();

		JsonNode echo = result(call(session, "echo", Map.of("text", "hi")));
		assertThat(echo.at("/content/0/text").asString()).isEqualTo("hi");
		call(session, "echo", Map.of("text", "again"));
		call(session, "set_value", Map.of("key", "k", "value", "v"));

		assertThat(this.server.executions("echo")).isEqualTo(2);
		assertThat(this.server.executions("set_value")).isEqualTo(1);
		assertThat(this.server.executions("delete_item")).isZero();
		assertThat(this.server.requestCount("tools/call")).isEqualTo(3);
		assertThat(this.server.requestCount("tools/list")).isEqualTo(1);
	}

	@Test
	void defaultPromptResourceAndTemplateAnswer() throws Exception {
		this.server = JavaSdkServer.start();
		String session = openSession();
		JsonNode prompt = result(rpc(session, "prompts/get", Map.of("name", "greeting", "arguments",
				Map.of("name", "Ada"))));
		assertThat(prompt.at("/messages/0/content/text").asString()).isEqualTo("Hello, Ada!");
		JsonNode readme = result(rpc(session, "resources/read", Map.of("uri", "demo://readme")));
		assertThat(readme.at("/contents/0/mimeType").asString()).isEqualTo("text/plain");
		JsonNode item = result(rpc(session, "resources/read", Map.of("uri", "demo://items/42")));
		assertThat(item.at("/contents/0/text").asString()).isEqualTo("Item 42");
		JsonNode templates = result(rpc(session, "resources/templates/list", Map.of()));
		assertThat(templates.at("/resourceTemplates/0/uriTemplate").asString()).isEqualTo("demo://items/{id}");
	}

	@Test
	void restartForgetsEverySessionAndKeepsCounting() throws Exception {
		this.server = JavaSdkServer.start();
		String before = openSession();
		call(before, "echo", Map.of("text", "one"));

		this.server.restart();

		assertThat(this.server.generation()).isEqualTo(2);
		assertThat(rpc(before, "tools/list", Map.of()).statusCode()).isEqualTo(404);
		String after = openSession();
		assertThat(after).isNotEqualTo(before);
		call(after, "echo", Map.of("text", "two"));
		assertThat(this.server.executions("echo")).isEqualTo(2);
		assertThat(this.server.initializeCount()).isEqualTo(2);
	}

	@Test
	void deleteIsCountedAndEndsTheSession() throws Exception {
		this.server = JavaSdkServer.start();
		String session = openSession();
		HttpResponse<String> delete = send(HttpRequest.newBuilder(URI.create(this.server.url()))
			.header("Mcp-Session-Id", session)
			.DELETE());
		assertThat(delete.statusCode()).isEqualTo(200);
		assertThat(this.server.deleteCount()).isEqualTo(1);
		assertThat(rpc(session, "tools/list", Map.of()).statusCode()).isEqualTo(404);
	}

	@Test
	void unknownSessionIs404AndMissingSessionIs400() throws Exception {
		this.server = JavaSdkServer.start();
		assertThat(rpc(UUID.randomUUID().toString(), "tools/list", Map.of()).statusCode()).isEqualTo(404);
		assertThat(rpc(null, "tools/list", Map.of()).statusCode()).isEqualTo(400);
	}

	@Test
	void customizerAddsAndReplacesTools() throws Exception {
		this.server = JavaSdkServer.start((spec) -> spec
			.tool("add", JavaSdkServer.readOnly(),
					(args) -> String.valueOf(((Number) args.get("a")).intValue() + ((Number) args.get("b")).intValue()))
			.tool("echo", JavaSdkServer.destructive(), (args) -> "no echo today"));
		String session = openSession();
		JsonNode tools = result(rpc(session, "tools/list", Map.of())).get("tools");
		assertThat(tools).hasSize(4);
		assertThat(annotation(tools, "echo", "destructiveHint")).isTrue();
		assertThat(result(call(session, "add", Map.of("a", 2, "b", 3))).at("/content/0/text").asString())
			.isEqualTo("5");
		assertThat(result(call(session, "echo", Map.of())).at("/content/0/text").asString())
			.isEqualTo("no echo today");
		assertThat(this.server.executions("add")).isEqualTo(1);
	}

	@Test
	void clearDropsTheDefaults() throws Exception {
		this.server = JavaSdkServer.start((spec) -> spec.clear().tool("only", JavaSdkServer.idempotent(), (args) -> "ok"));
		String session = openSession();
		JsonNode tools = result(rpc(session, "tools/list", Map.of())).get("tools");
		assertThat(tools).hasSize(1);
		assertThat(tools.get(0).get("name").asString()).isEqualTo("only");
	}

	private String openSession() throws Exception {
		HttpResponse<String> initialize = rpc(null, "initialize", initializeParams());
		assertThat(initialize.statusCode()).isEqualTo(200);
		String session = initialize.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(notify(session, "notifications/initialized").statusCode()).isEqualTo(202);
		return session;
	}

	private static Map<String, Object> initializeParams() {
		return Map.of("protocolVersion", "2025-11-25", "capabilities", Map.of(), "clientInfo",
				Map.of("name", "java-sdk-server-test", "version", "0"));
	}

	private HttpResponse<String> call(String session, String tool, Map<String, Object> arguments) throws Exception {
		return rpc(session, "tools/call", Map.of("name", tool, "arguments", arguments));
	}

	private HttpResponse<String> rpc(String session, String method, Map<String, Object> params) throws Exception {
		return post(session, Map.of("jsonrpc", "2.0", "id", ++this.nextId, "method", method, "params", params));
	}

	private HttpResponse<String> notify(String session, String method) throws Exception {
		return post(session, Map.of("jsonrpc", "2.0", "method", method));
	}

	private HttpResponse<String> post(String session, Map<String, Object> message) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.server.url()))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(BodyPublishers.ofString(json.writeValueAsString(message)));
		if (session != null) {
			request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
		}
		return send(request);
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return this.http.send(request.build(), BodyHandlers.ofString());
	}

	/** The result of a JSON-RPC response sent as JSON or as the data of SSE events. */
	private static JsonNode result(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(200);
		String body = response.body();
		if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
			body = body.lines()
				.filter((line) -> line.startsWith("data:"))
				.map((line) -> line.substring("data:".length()).trim())
				.reduce("", String::concat);
		}
		JsonNode message = json.readTree(body);
		assertThat(message.has("error")).as("error in %s", body).isFalse();
		return message.get("result");
	}

	private static boolean annotation(JsonNode tools, String tool, String hint) {
		for (JsonNode candidate : tools) {
			if (tool.equals(candidate.get("name").asString())) {
				return candidate.at("/annotations/" + hint).asBoolean();
			}
		}
		throw new AssertionError("No tool " + tool + " in " + tools);
	}

}
