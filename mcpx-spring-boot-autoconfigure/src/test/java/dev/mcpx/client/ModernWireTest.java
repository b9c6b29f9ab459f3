package dev.mcpx.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.mcpx.client.error.McpHeaderMismatchException;
import dev.mcpx.client.error.McpInputRequiredException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpUnsupportedVersionException;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.Tool;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.McpWireMock;
import dev.mcpx.testsupport.ScriptedInputHandler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.ID;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Wire-level behaviour of the modern era (2026-07-28 basic/transports/streamable-http,
 * basic/versioning, basic/patterns/mrtr) against scripted WireMock responses.
 */
class ModernWireTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String VERSION = "2026-07-28";

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("modern", wire.mcpUri())
		.protocol(ProtocolMode.MODERN)
		.requestTimeout(Duration.ofSeconds(3)));

	private static ResponseDefinitionBuilder error(int status, int code, String message, String data) {
		return aResponse().withStatus(status).withHeader("Content-Type", "application/json")
			.withBody("{\"jsonrpc\":\"2.0\",\"id\":" + ID + ",\"error\":{\"code\":" + code
					+ ",\"message\":\"" + message + "\"" + ((data != null) ? ",\"data\":" + data : "") + "}}");
	}

	private static void stubDiscover() {
		wire.stubFor(method("server/discover").willReturn(okJson(result("{\"resultType\":\"complete\","
				+ "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}},\"ttlMs\":0,"
				+ "\"cacheScope\":\"public\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
				+ "{\"name\":\"wire-modern\",\"version\":\"2.0\"}}}"))));
	}

	private static void stubTools(String toolsJson) {
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":" + toolsJson + "}"))));
	}

	private static JsonNode body(LoggedRequest request) {
		return json.readTree(request.getBodyAsString());
	}

	private static final String CONTENT_OK = "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}";

	// --- request metadata ----------------------------------------------------------

	@Test
	void everyRequestCarriesMetaAndMirrorsItIntoHeaders() {
		stubDiscover();
		stubTools("[{\"name\":\"get_weather\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").willReturn(okJson(result(CONTENT_OK))));
		wire.stubFor(method("resources/read").willReturn(okJson(result("{\"contents\":[]}"))));
		wire.stubFor(method("prompts/get").willReturn(okJson(result("{\"messages\":[]}"))));

		this.clients.client().callTool("get_weather", Map.of("location", "Seattle, WA"));
		this.clients.last().readResource("file:///projects/myapp/config.json");
		this.clients.last().getPrompt("summary", Map.of());

		for (String method : List.of("server/discover", "tools/list", "tools/call", "resources/read", "prompts/get")) {
			LoggedRequest request = wire.posts(method).get(0);
			JsonNode meta = body(request).at("/params/_meta");
			// 2026-07-28 basic §_meta: version, capabilities and identity on every request.
			assertThat(meta.path("io.modelcontextprotocol/protocolVersion").asString()).isEqualTo(VERSION);
			assertThat(meta.path("io.modelcontextprotocol/clientCapabilities").isObject()).isTrue();
			assertThat(meta.at("/io.modelcontextprotocol~1clientInfo/name").asString()).isEqualTo("mcpx");
			// streamable-http §Protocol Version Header: equal to _meta; §Standard Request Headers.
			assertThat(request.getHeader("MCP-Protocol-Version")).isEqualTo(VERSION);
			assertThat(request.getHeader("Mcp-Method")).isEqualTo(method);
			assertThat(request.getHeader("Accept")).contains("application/json").contains("text/event-stream");
			assertThat(request.containsHeader("Mcp-Session-Id")).isFalse();
		}
		assertThat(wire.posts("tools/call").get(0).getHeader("Mcp-Name")).isEqualTo("get_weather");
		assertThat(wire.posts("resources/read").get(0).getHeader("Mcp-Name")).isEqualTo("file:///projects/myapp/config.json");
		assertThat(wire.posts("prompts/get").get(0).getHeader("Mcp-Name")).isEqualTo("summary");
		assertThat(wire.posts("tools/list").get(0).containsHeader("Mcp-Name")).isFalse();
		assertThat(this.clients.last().serverInfo())
			.hasValueSatisfying((info) -> assertThat(info.name()).isEqualTo("wire-modern"));
		assertThat(this.clients.last().era()).contains(ProtocolEra.MODERN);
		assertThat(wire.posts("initialize")).isEmpty();
	}

	@Test
	void aServerLogLevelTravelsInEveryRequestsMetaInsteadOfSetLevel() {
		stubDiscover();
		stubTools("[{\"name\":\"get_weather\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").willReturn(okJson(result(CONTENT_OK))));

		this.clients.client((b) -> b.serverLogLevel("WARNING")).callTool("get_weather", Map.of());

		// 2026-07-28 server/utilities/logging: the level rides on each request; no logging/setLevel.
		for (String method : List.of("server/discover", "tools/list", "tools/call")) {
			assertThat(body(wire.posts(method).get(0)).at("/params/_meta/io.modelcontextprotocol~1logLevel").asString())
				.as(method).isEqualTo("warning");
		}
		assertThat(wire.posts("logging/setLevel")).isEmpty();
	}

	@Test
	void withoutAServerLogLevelNoRequestAsksForLogMessages() {
		stubDiscover();
		stubTools("[{\"name\":\"get_weather\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").willReturn(okJson(result(CONTENT_OK))));

		this.clients.client().callTool("get_weather", Map.of());

		assertThat(body(wire.posts("tools/call").get(0)).at("/params/_meta").has("io.modelcontextprotocol/logLevel"))
			.isFalse();
	}

	@Test
	void aNameOutsideTheHeaderSafeCharactersTravelsInBase64() {
		stubDiscover();
		stubTools("[{\"name\":\"wetter-für-köln\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").willReturn(okJson(result(CONTENT_OK))));

		this.clients.client().callTool("wetter-für-köln", Map.of());

		// streamable-http §Value Encoding.
		assertThat(wire.posts("tools/call").get(0).getHeader("Mcp-Name")).isEqualTo("=?base64?"
				+ Base64.getEncoder().encodeToString("wetter-für-köln".getBytes(StandardCharsets.UTF_8)) + "?=");
	}

	@Test
	void parametersMarkedXMcpHeaderAreMirroredIntoMcpParamHeaders() {
		stubDiscover();
		stubTools("[{\"name\":\"execute_sql\",\"inputSchema\":{\"type\":\"object\",\"properties\":{"
				+ "\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"},"
				+ "\"priority\":{\"type\":\"integer\",\"x-mcp-header\":\"Priority\"},"
				+ "\"verbose\":{\"type\":\"boolean\",\"x-mcp-header\":\"Verbose\"},"
				+ "\"greeting\":{\"type\":\"string\",\"x-mcp-header\":\"Greeting\"},"
				+ "\"padded\":{\"type\":\"string\",\"x-mcp-header\":\"Padded\"},"
				+ "\"absent\":{\"type\":\"string\",\"x-mcp-header\":\"Absent\"},"
				+ "\"tenant\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"x-mcp-header\":\"Tenant\"}}},"
				+ "\"query\":{\"type\":\"string\"}}}}]");
		wire.stubFor(method("tools/call").willReturn(okJson(result(CONTENT_OK))));
		Map<String, Object> arguments = new HashMap<>();
		arguments.put("region", "us-west1");
		arguments.put("priority", 42);
		arguments.put("verbose", null);
		arguments.put("greeting", "Hello, 世界");
		arguments.put("padded", " padded ");
		arguments.put("tenant", Map.of("id", "acme"));
		arguments.put("query", "SELECT 1");

		this.clients.client().callTool("execute_sql", arguments);

		LoggedRequest call = wire.posts("tools/call").get(0);
		assertThat(call.getHeader("Mcp-Param-Region")).isEqualTo("us-west1");
		assertThat(call.getHeader("Mcp-Param-Priority")).isEqualTo("42");
		assertThat(call.getHeader("Mcp-Param-Greeting")).isEqualTo("=?base64?SGVsbG8sIOS4lueVjA==?=");
		assertThat(call.getHeader("Mcp-Param-Padded")).isEqualTo("=?base64?IHBhZGRlZCA=?=");
		assertThat(call.getHeader("Mcp-Param-Tenant")).isEqualTo("acme");
		// A null or absent value gets no header (§Server Behavior for Custom Headers).
		assertThat(call.containsHeader("Mcp-Param-Verbose")).isFalse();
		assertThat(call.containsHeader("Mcp-Param-Absent")).isFalse();
		assertThat(call.containsHeader("Mcp-Param-Query")).isFalse();
	}

	@Test
	void aToolWithInvalidHeaderDeclarationsIsNotListedAndNotCalled() {
		stubDiscover();
		stubTools("[{\"name\":\"valid\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"r\":{\"type\":\"string\","
				+ "\"x-mcp-header\":\"Region\"}}}},"
				+ "{\"name\":\"on_number\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"number\","
				+ "\"x-mcp-header\":\"N\"}}}},"
				+ "{\"name\":\"twice\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\","
				+ "\"x-mcp-header\":\"Dup\"},\"b\":{\"type\":\"string\",\"x-mcp-header\":\"dup\"}}}},"
				+ "{\"name\":\"in_items\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"l\":{\"type\":\"array\","
				+ "\"items\":{\"type\":\"string\",\"x-mcp-header\":\"Item\"}}}}},"
				+ "{\"name\":\"bad_name\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\","
				+ "\"x-mcp-header\":\"Has Space\"}}}}]");

		// streamable-http §Schema Extension: invalid tools are excluded from tools/list.
		assertThat(this.clients.client().listTools()).extracting(Tool::name).containsExactly("valid");
		assertThatThrownBy(() -> this.clients.last().callTool("on_number", Map.of("n", 1.5)))
			.isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("not called");
		assertThat(wire.posts("tools/call")).isEmpty();
	}

	// --- versions and errors ------------------------------------------------------

	@Test
	void anUnsupportedVersionIsRetriedOnceWithAVersionBothSupport() {
		stubDiscover();
		wire.stubFor(method("tools/list").inScenario("v").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(error(400, -32022, "Unsupported protocol version", "{\"supported\":[\"2026-07-28\"],"
					+ "\"requested\":\"2026-07-28\"}"))
			.willSetStateTo("ok"));
		wire.stubFor(method("tools/list").inScenario("v").whenScenarioStateIs("ok")
			.willReturn(okJson(result("{\"tools\":[]}"))));

		assertThat(this.clients.client().listTools()).isEmpty();

		List<LoggedRequest> lists = wire.posts("tools/list");
		assertThat(lists).hasSize(2);
		// basic/versioning: a new request, so a new id.
		assertThat(body(lists.get(0)).path("id").asLong()).isNotEqualTo(body(lists.get(1)).path("id").asLong());
		assertThat(this.clients.events()).filteredOn(McpRequestReissuedEvent.class::isInstance).singleElement()
			.satisfies((e) -> assertThat(((McpRequestReissuedEvent) e).cause()).isEqualTo(ReplayCause.VERSION_RENEGOTIATED));
	}

	@Test
	void noMutuallySupportedVersionIsATypedError() {
		stubDiscover();
		wire.stubFor(method("tools/list").willReturn(error(400, -32022, "Unsupported protocol version",
				"{\"supported\":[\"2099-01-01\"],\"requested\":\"2026-07-28\"}")));

		assertThatThrownBy(this.clients.client()::listTools).isInstanceOfSatisfying(McpUnsupportedVersionException.class,
				(ex) -> assertThat(ex.supported()).containsExactly("2099-01-01"));
		assertThat(wire.posts("tools/list")).hasSize(1);
	}

	@Test
	void aHeaderMismatchOnAToolCallIsCorrectedOnceFromAFreshListing() {
		stubDiscover();
		// At first the tool declares no header; the server has since added one.
		wire.stubFor(method("tools/list").inScenario("h").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson(result("{\"tools\":[{\"name\":\"sql\",\"inputSchema\":{\"type\":\"object\","
					+ "\"properties\":{\"region\":{\"type\":\"string\"}}}}]}")))
			.willSetStateTo("changed"));
		wire.stubFor(method("tools/list").inScenario("h").whenScenarioStateIs("changed")
			.willReturn(okJson(result("{\"tools\":[{\"name\":\"sql\",\"inputSchema\":{\"type\":\"object\","
					+ "\"properties\":{\"region\":{\"type\":\"string\",\"x-mcp-header\":\"Region\"}}}}]}"))));
		wire.stubFor(method("tools/call").willReturn(error(400, -32020, "Header mismatch: Mcp-Param-Region missing",
				null)));
		wire.stubFor(method("tools/call").withHeader("Mcp-Param-Region", equalTo("eu-west1")).atPriority(1)
			.willReturn(okJson(result(CONTENT_OK))));

		assertThat(this.clients.client().callTool("sql", Map.of("region", "eu-west1")).text()).isEqualTo("ok");

		// §Client Behavior: list tools to check for changes, then retry with the right headers.
		assertThat(wire.posts("tools/list")).hasSize(2);
		assertThat(wire.posts("tools/call")).hasSize(2);
		assertThat(this.clients.events()).filteredOn(McpRequestReissuedEvent.class::isInstance).singleElement()
			.satisfies((e) -> assertThat(((McpRequestReissuedEvent) e).cause()).isEqualTo(ReplayCause.HEADERS_CORRECTED));
	}

	@Test
	void aHeaderMismatchThatAFreshListingCannotExplainStands() {
		stubDiscover();
		stubTools("[{\"name\":\"sql\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").willReturn(error(400, -32020, "Header mismatch", null)));

		assertThatThrownBy(() -> this.clients.client().callTool("sql", Map.of()))
			.isInstanceOf(McpHeaderMismatchException.class);
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aModernClientMeetingALegacyServerSaysSo() {
		wire.stubFor(method("server/discover").willReturn(error(400, -32000, "Bad Request: No valid session ID provided",
				null)));

		assertThatThrownBy(this.clients.client()::listTools).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("does not speak 2026-07-28")
			.hasMessageContaining("auto or legacy");
	}

	@Test
	void aHeaderMismatchIsATypedError() {
		stubDiscover();
		wire.stubFor(method("tools/list").willReturn(error(400, -32020, "Header mismatch", null)));

		assertThatThrownBy(this.clients.client()::listTools).isInstanceOf(McpHeaderMismatchException.class)
			.hasMessageContaining("-32020");
	}

	@Test
	void a404IsMethodNotFoundNeverSessionExpiry() {
		stubDiscover();
		wire.stubFor(method("prompts/list").willReturn(error(404, -32601, "Method not found", null)));

		assertThatThrownBy(this.clients.client()::listPrompts).isInstanceOfSatisfying(McpJsonRpcException.class,
				(ex) -> assertThat(ex.code()).isEqualTo(-32601));
		assertThat(wire.posts("prompts/list")).hasSize(1);
		assertThat(wire.posts("initialize")).isEmpty();
		assertThat(this.clients.events()).isEmpty();
	}

	// --- broken streams: 2026-07-28 changelog; docs/architecture.md, "Recovery rules" --------------------------------------------------

	@ParameterizedTest
	@ValueSource(strings = { "reset", "empty", "truncated-json", "sse-closed-early", "sse-cut-mid-event" })
	void aReadShapedRequestWhoseStreamBrokeIsReissuedOnceWithANewId(String breakage) {
		stubDiscover();
		wire.stubFor(method("tools/list").inScenario("b").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(broken(breakage))
			.willSetStateTo("ok"));
		wire.stubFor(method("tools/list").inScenario("b").whenScenarioStateIs("ok")
			.willReturn(okJson(result("{\"tools\":[{\"name\":\"t\",\"inputSchema\":{}}]}"))));

		assertTimeoutPreemptively(Duration.ofSeconds(10),
				() -> assertThat(this.clients.client().listTools()).extracting(Tool::name).containsExactly("t"));

		List<LoggedRequest> lists = wire.posts("tools/list");
		assertThat(lists).hasSize(2);
		assertThat(body(lists.get(0)).path("id").asLong()).isNotEqualTo(body(lists.get(1)).path("id").asLong());
		assertThat(this.clients.events()).filteredOn(McpRequestReissuedEvent.class::isInstance).singleElement()
			.satisfies((e) -> assertThat(((McpRequestReissuedEvent) e).cause()).isEqualTo(ReplayCause.STREAM_LOST));
	}

	private static ResponseDefinitionBuilder broken(String breakage) {
		return switch (breakage) {
			case "reset" -> aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER);
			case "empty" -> aResponse().withFault(Fault.EMPTY_RESPONSE);
			case "truncated-json" -> okJson("{\"jsonrpc\":\"2.0\",\"id\":" + ID + ",\"result\":{\"too");
			case "sse-closed-early" -> aResponse().withHeader("Content-Type", "text/event-stream")
				.withBody("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
						+ "\"params\":{\"progressToken\":1,\"progress\":1}}\n\n");
			case "sse-cut-mid-event" -> aResponse().withHeader("Content-Type", "text/event-stream")
				.withBody("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":");
			default -> throw new IllegalArgumentException(breakage);
		};
	}

	@Test
	void aToolWithoutAnnotationsWhoseStreamBrokeIsNotReissued() {
		stubDiscover();
		stubTools("[{\"name\":\"transfer\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").willReturn(broken("sse-closed-early")));

		assertThatThrownBy(() -> this.clients.client().callTool("transfer", Map.of()))
			.isInstanceOf(McpStreamLostException.class)
			.hasMessageContaining("may have executed")
			.hasMessageContaining("not re-issued");
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aTimedOutRequestIsCancelledByClosingItsStreamNotByANotification() {
		stubDiscover();
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[]}")).withFixedDelay(5000)));

		assertThatThrownBy(this.clients.client((b) -> b.requestTimeout(Duration.ofMillis(300)))::listTools)
			.isInstanceOf(McpTimeoutException.class);

		// streamable-http §Cancellation: closing the stream is the cancellation.
		assertThat(wire.posts("notifications/cancelled")).isEmpty();
	}

	// --- multi round-trip requests: basic/patterns/mrtr ---------------------------------

	@Test
	void inputRequestsAreAnsweredAndTheRequestSentAgainWithTheEchoedState() {
		stubDiscover();
		stubTools("[{\"name\":\"confirm\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").inScenario("m").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson(result("{\"resultType\":\"input_required\",\"inputRequests\":{\"ok\":{\"method\":"
					+ "\"elicitation/create\",\"params\":{\"message\":\"Sure?\",\"requestedSchema\":{}}}},"
					+ "\"requestState\":\"opaque-state-1\"}")))
			.willSetStateTo("answered"));
		wire.stubFor(method("tools/call").inScenario("m").whenScenarioStateIs("answered")
			.willReturn(okJson(result(CONTENT_OK))));
		ScriptedInputHandler handler = ScriptedInputHandler.acceptingForms("{\"confirmed\":true}");

		assertThat(this.clients.client((b) -> b.inputHandler(handler)).callTool("confirm", Map.of("x", 1)).text())
			.isEqualTo("ok");

		assertThat(handler.requests()).singleElement().satisfies((r) -> {
			assertThat(r.key()).isEqualTo("ok");
			assertThat(r.method()).isEqualTo("elicitation/create");
		});
		List<LoggedRequest> calls = wire.posts("tools/call");
		assertThat(calls).hasSize(2);
		JsonNode retry = body(calls.get(1));
		assertThat(retry.path("id").asLong()).isNotEqualTo(body(calls.get(0)).path("id").asLong());
		assertThat(retry.at("/params/requestState").asString()).isEqualTo("opaque-state-1");
		assertThat(retry.at("/params/inputResponses/ok/action").asString()).isEqualTo("accept");
		assertThat(retry.at("/params/arguments/x").asInt()).isEqualTo(1);
		// The handler's capability is declared on every request.
		assertThat(body(calls.get(0)).at("/params/_meta/io.modelcontextprotocol~1clientCapabilities/elicitation")
			.isObject()).isTrue();
		assertThat(body(calls.get(0)).at("/params/inputResponses").isMissingNode()).isTrue();
	}

	@Test
	void inputRequestsWithoutAHandlerAreATypedError() {
		stubDiscover();
		stubTools("[{\"name\":\"confirm\",\"inputSchema\":{\"type\":\"object\"}}]");
		wire.stubFor(method("tools/call").willReturn(okJson(result("{\"resultType\":\"input_required\","
				+ "\"inputRequests\":{\"ok\":{\"method\":\"elicitation/create\",\"params\":{}}}}"))));

		assertThatThrownBy(() -> this.clients.client().callTool("confirm", Map.of()))
			.isInstanceOfSatisfying(McpInputRequiredException.class,
					(ex) -> assertThat(ex.inputMethods()).containsExactly("elicitation/create"));
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void anUnknownResultTypeIsAProtocolError() {
		stubDiscover();
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"resultType\":\"partial\",\"tools\":[]}"))));

		assertThatThrownBy(this.clients.client()::listTools).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("partial");
	}

	// --- caching and subscriptions: server/utilities/caching, basic/patterns/subscriptions --

	@Test
	void aListingIsServedFromTheCatalogueForItsTtlAndAListChangedOnTheSubscriptionDropsIt() {
		wire.stubFor(method("server/discover").willReturn(okJson(result("{\"resultType\":\"complete\","
				+ "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{\"listChanged\":true}},"
				+ "\"ttlMs\":0,\"cacheScope\":\"public\"}"))));
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[],\"ttlMs\":300000,"
				+ "\"cacheScope\":\"public\"}"))));
		wire.stubFor(method("prompts/list").willReturn(okJson(result("{\"prompts\":[],\"ttlMs\":0}"))));
		// The subscription opens after the first success; its change arrives a moment later.
		wire.stubFor(method("subscriptions/listen").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
			.withBody("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
					+ "\"params\":{\"notifications\":{\"toolsListChanged\":true}}}\n\n"
					+ "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
			.withFixedDelay(1500)));
		McpClient modern = this.clients.client();
		modern.listTools();
		modern.listTools();
		modern.listPrompts();
		modern.listPrompts();
		// ttlMs 300000: fresh, no second request; ttlMs 0: immediately stale.
		assertThat(wire.posts("tools/list")).hasSize(1);
		assertThat(wire.posts("prompts/list")).hasSize(2);

		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.clients.events()).anyMatch(
					(e) -> e instanceof dev.mcpx.client.event.McpCatalogueInvalidatedEvent invalidated
							&& invalidated.reason().equals("notifications/tools/list_changed")));
		modern.listTools();
		assertThat(wire.posts("tools/list")).hasSize(2);
		LoggedRequest listen = wire.posts("subscriptions/listen").get(0);
		assertThat(body(listen).at("/params/notifications/toolsListChanged").asBoolean()).isTrue();
		assertThat(body(listen).at("/params/_meta/io.modelcontextprotocol~1protocolVersion").asString()).isEqualTo(VERSION);
		assertThat(listen.getHeader("Mcp-Method")).isEqualTo("subscriptions/listen");
	}

	@Test
	void aToolTheServerDoesNotListCostsOneListingNotOnePerCallEvenWithTtlZero() {
		// server/utilities/caching: ttlMs 0 means every listing is stale at once, so nothing
		// but the registry's memory of a missing tool stops a tools/list before every call.
		stubDiscover();
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[{\"name\":\"listed\","
				+ "\"inputSchema\":{\"type\":\"object\"}}],\"ttlMs\":0}"))));
		wire.stubFor(method("tools/call").willReturn(okJson(result(CONTENT_OK))));
		McpClient modern = this.clients.client();

		for (int i = 0; i < 5; i++) {
			assertThat(modern.callTool("unlisted", Map.of("n", i)).isError()).isFalse();
		}
		assertThat(wire.posts("tools/call")).hasSize(5);
		assertThat(wire.posts("tools/list")).hasSize(1);
		// the listing the application asks for still goes to the server (ttlMs 0)
		modern.listTools();
		assertThat(wire.posts("tools/list")).hasSize(2);
		modern.callTool("listed", Map.of());
		assertThat(wire.posts("tools/list")).hasSize(2);
	}

	// --- era detection: basic/versioning §Backward Compatibility ------------------------

	@Test
	void anUpstreamDowngradedInPlaceIsDetectedAgainAndTheRequestRetried() {
		stubDiscover();
		wire.stubFor(method("tools/list").inScenario("era").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson(result("{\"tools\":[]}")))
			.willSetStateTo("legacy"));
		// Downgraded: modern requests now get what a legacy server answers a session-less request.
		wire.stubFor(post(urlEqualTo("/mcp")).inScenario("era").whenScenarioStateIs("legacy")
			.withHeader("MCP-Protocol-Version", equalTo(VERSION))
			.atPriority(1)
			.willReturn(error(400, -32000, "Bad Request: Server not initialized", null)));
		wire.stubFor(method("initialize").inScenario("era").whenScenarioStateIs("legacy")
			.willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
					+ "\"serverInfo\":{\"name\":\"old\",\"version\":\"1\"}}")).withHeader("Mcp-Session-Id", "s-0123456789")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("tools/list").inScenario("era").whenScenarioStateIs("legacy")
			.withHeader("Mcp-Session-Id", equalTo("s-0123456789"))
			.willReturn(okJson(result("{\"tools\":[{\"name\":\"legacy_tool\",\"inputSchema\":{}}]}"))));
		McpClient auto = this.clients.client((b) -> b.protocol(ProtocolMode.AUTO));
		assertThat(auto.listTools()).isEmpty();
		assertThat(auto.era()).contains(ProtocolEra.MODERN);

		assertThat(auto.listTools()).extracting(Tool::name).containsExactly("legacy_tool");

		assertThat(auto.era()).contains(ProtocolEra.LEGACY);
		assertThat(this.clients.events()).filteredOn(McpEraDetectedEvent.class::isInstance)
			.extracting((e) -> ((McpEraDetectedEvent) e).era())
			.containsExactly(ProtocolEra.MODERN, ProtocolEra.LEGACY);
	}

}
