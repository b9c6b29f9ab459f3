package dev.mcpx.client;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.error.McpCapabilityException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.internal.session.StreamLost;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.Tool;
import dev.mcpx.testsupport.McpWireMock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.deleteRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.ID;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Wire-level behaviour of the legacy era (2025-11-25 basic/transports, basic/lifecycle)
 * against scripted WireMock responses: JSON and SSE bodies, server messages before the
 * response, headers, statuses, malformed and broken bodies.
 */
class LegacyWireTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private static final String SESSION_ID = "sess-0123456789abcdef";

	private static final String SECRET = "Bearer very-secret-token";

	private static final JsonMapper json = JsonMapper.builder().build();

	private McpClient client;

	@BeforeEach
	void openClient() {
		this.client = client(Duration.ofSeconds(3));
	}

	@AfterEach
	void closeClient() {
		this.client.close();
	}

	private static McpClient client(Duration timeout) {
		return McpClient.builder("wire", wire.mcpUri()).protocol(ProtocolMode.LEGACY)
			.header("Authorization", SECRET)
			.requestTimeout(timeout)
			.build();
	}

	// --- stubbing helpers ---------------------------------------------------------

	private static void stubHandshake(String protocolVersion) {
		wire.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"" + protocolVersion
				+ "\",\"capabilities\":{\"tools\":{},\"prompts\":{},\"resources\":{}},\"serverInfo\":{\"name\":\"wire-server\",\"version\":\"9.9\"}}"))
			.withHeader("Mcp-Session-Id", SESSION_ID)));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("notifications/cancelled").willReturn(aResponse().withStatus(202)));
	}

	private static void stubTools() {
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[{\"name\":\"echo\",\"inputSchema\":"
				+ "{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}},{\"name\":\"wipe\",\"inputSchema\":"
				+ "{\"type\":\"object\"},\"annotations\":{\"destructiveHint\":true,\"idempotentHint\":false}}]}"))));
	}

	// --- handshake and headers ----------------------------------------------------

	@Test
	void handshakeOffersLatestVersionThenSendsSessionAndVersionHeadersOnEveryLaterMessage() {
		stubHandshake("2025-11-25");
		stubTools();

		List<Tool> tools = this.client.listTools();

		assertThat(tools).extracting(Tool::name).containsExactly("echo", "wipe");
		LoggedRequest initialize = wire.posts("initialize").get(0);
		// 2025-11-25 lifecycle §Initialization: the client offers the latest version it supports.
		assertThat(json.readTree(initialize.getBodyAsString()).at("/params/protocolVersion").asString())
			.isEqualTo("2025-11-25");
		// transports §Session Management rule 4: a new session starts without a session id.
		assertThat(initialize.containsHeader("Mcp-Session-Id")).isFalse();
		// transports §Sending Messages rule 2: Accept lists both types.
		assertThat(initialize.getHeader("Accept")).contains("application/json").contains("text/event-stream");
		for (String later : List.of("notifications/initialized", "tools/list")) {
			LoggedRequest request = wire.posts(later).get(0);
			// §Session Management rule 2 and §Protocol Version Header.
			assertThat(request.getHeader("Mcp-Session-Id")).isEqualTo(SESSION_ID);
			assertThat(request.getHeader("MCP-Protocol-Version")).isEqualTo("2025-11-25");
			assertThat(request.getHeader("Authorization")).isEqualTo(SECRET);
		}
		assertThat(this.client.protocolVersion()).contains("2025-11-25");
		assertThat(this.client.era()).contains(ProtocolEra.LEGACY);
		assertThat(this.client.serverInfo()).hasValueSatisfying((info) -> assertThat(info.name()).isEqualTo("wire-server"));
	}

	@Test
	void statusTellsEraServerOutcomesAndNoSecrets() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		wire.stubFor(method("tools/list").willReturn(aResponse().withStatus(503)));
		assertThatThrownBy(() -> McpClient.builder("wire", URI.create("http://user:pw@127.0.0.1:1/mcp")))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("user-info")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("pw"));
		McpClient withUserInfo = McpClient.builder("wire", wire.mcpUri())
			.protocol(ProtocolMode.LEGACY)
			.header("Authorization", SECRET)
			.build();
		assertThat(withUserInfo.status().contacted()).isFalse();

		withUserInfo.ping();
		assertThatThrownBy(withUserInfo::listTools).isInstanceOf(McpHttpStatusException.class);

		McpClientStatus status = withUserInfo.status();
		withUserInfo.close();
		assertThat(status.era()).isEqualTo(ProtocolEra.LEGACY);
		assertThat(status.protocolVersion()).isEqualTo("2025-11-25");
		assertThat(status.serverInfo().name()).isEqualTo("wire-server");
		assertThat(status.sessionGeneration()).isEqualTo(1);
		assertThat(status.lastSuccessAt()).isNotNull();
		assertThat(status.consecutiveFailures()).isEqualTo(1);
		assertThat(status.lastError()).contains("503");
		assertThat(status.url()).isEqualTo(wire.mcpUrl());
		assertThat(status.toString()).doesNotContain("pw").doesNotContain("very-secret-token").doesNotContain(SESSION_ID);
	}

	@Test
	void annotationsAreKeptAsTheServerListedThem() {
		stubHandshake("2025-11-25");
		stubTools();

		List<Tool> tools = this.client.listTools();

		assertThat(tools.get(0).annotations().isReadOnly()).isTrue();
		assertThat(tools.get(1).annotations().destructiveHint()).isTrue();
		assertThat(tools.get(1).annotations().isIdempotent()).isFalse();
		assertThat(tools.get(0).inputSchema().path("type").asString()).isEqualTo("object");
	}

	@Test
	void olderLegacyRevisionsChosenByTheServerAreAccepted() {
		for (String version : List.of("2025-06-18", "2025-03-26")) {
			wire.resetAll();
			stubHandshake(version);
			wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
			try (McpClient fresh = client(Duration.ofSeconds(3))) {
				fresh.ping();
				assertThat(fresh.protocolVersion()).contains(version);
			}
		}
	}

	@Test
	void aVersionOutsideTheLegacyRevisionsIsRefusedClearly() {
		stubHandshake("2024-11-05");

		assertThatThrownBy(this.client::ping).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("2024-11-05")
			.hasMessageContaining("2025-11-25");
		assertThat(wire.posts("ping")).isEmpty();
	}

	@Test
	void aSessionIdOutsideVisibleAsciiIsRefusedAndNeverEchoed() {
		wire.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{},\"prompts\":{},\"resources\":{}},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}"))
			.withHeader("Mcp-Session-Id", "bad id with spaces")));

		assertThatThrownBy(this.client::ping).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("visible ASCII")
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("bad id"));
		assertThat(wire.posts("notifications/initialized")).isEmpty();
	}

	@Test
	void notificationsCarryNoId() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		this.client.ping();

		// 2025-11-25 basic §Notifications: notifications MUST NOT include an ID.
		assertThat(json.readTree(wire.posts("notifications/initialized").get(0).getBodyAsString()).has("id")).isFalse();
		// basic §Requests: an ID that is a string or integer, never null.
		assertThat(json.readTree(wire.posts("ping").get(0).getBodyAsString()).path("id").isIntegralNumber()).isTrue();
	}

	@Test
	void aFeatureTheServerDidNotDeclareIsNotRequested() {
		wire.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}"))
			.withHeader("Mcp-Session-Id", SESSION_ID)));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));

		// 2025-11-25 basic/lifecycle §Operation: only negotiated capabilities are used.
		assertThatThrownBy(this.client::listPrompts).isInstanceOfSatisfying(McpCapabilityException.class,
				(ex) -> assertThat(ex.capability()).isEqualTo("prompts"));
		assertThat(wire.posts("prompts/list")).isEmpty();
	}

	@Test
	void aTimedOutInitializeIsNeverCancelled() {
		wire.stubFor(method("initialize").willReturn(okJson(result("{}")).withFixedDelay(3000)));
		wire.stubFor(method("notifications/cancelled").willReturn(aResponse().withStatus(202)));
		try (McpClient impatient = McpClient.builder("wire", wire.mcpUri()).protocol(ProtocolMode.LEGACY)
			.handshakeTimeout(Duration.ofMillis(300))
			.build()) {
			assertThatThrownBy(impatient::ping).isInstanceOf(McpTimeoutException.class)
				.hasMessageContaining("initialize");
		}
		// 2025-11-25 basic/utilities/cancellation: the initialize request MUST NOT be cancelled.
		assertThat(wire.posts("notifications/cancelled")).isEmpty();
	}

	// --- responses ----------------------------------------------------------------

	@Test
	void eventStreamMessagesBeforeTheResponseAreDispatchedAndServerPingIsAnswered() {
		stubHandshake("2025-11-25");
		List<String> notifications = new CopyOnWriteArrayList<>();
		McpClient listening = McpClient.builder("wire", wire.mcpUri()).protocol(ProtocolMode.LEGACY)
			.notificationListener((upstream, method, params) -> notifications.add(method))
			.build();
		wire.stubFor(post(urlEqualTo("/mcp")).withRequestBody(matchingJsonPath("$.id", equalTo("srv-1")))
			.willReturn(aResponse().withStatus(202)));
		wire.stubFor(post(urlEqualTo("/mcp")).withRequestBody(matchingJsonPath("$.id", equalTo("srv-2")))
			.willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("tools/call").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
			.withBody("id: e-0\ndata:\n\n"
					+ ": a comment\n"
					+ "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\n"
					+ "data:  \"params\":{\"progressToken\":1,\"progress\":1}}\n\n"
					+ "id: e-1\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n"
					+ "id: e-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-2\",\"method\":\"sampling/createMessage\",\"params\":{}}\n\n"
					+ "id: e-3\ndata: " + result("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}") + "\n\n")));

		CallToolResult result = listening.callTool("echo", Map.of("text", "hi"));
		listening.close();

		assertThat(result.text()).isEqualTo("done");
		assertThat(notifications).containsExactly("notifications/progress");
		JsonNode pong = json.readTree(wire.findAll(postRequestedFor(urlEqualTo("/mcp"))
			.withRequestBody(matchingJsonPath("$.id", equalTo("srv-1")))).get(0).getBodyAsString());
		assertThat(pong.has("result")).isTrue();
		JsonNode refused = json.readTree(wire.findAll(postRequestedFor(urlEqualTo("/mcp"))
			.withRequestBody(matchingJsonPath("$.id", equalTo("srv-2")))).get(0).getBodyAsString());
		assertThat(refused.at("/error/code").asInt()).isEqualTo(-32601);
	}

	@Test
	void everyListFollowsNextCursorToTheEnd() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("prompts/list").withRequestBody(matchingJsonPath("$.params.cursor", absent()))
			.willReturn(okJson(result("{\"prompts\":[{\"name\":\"p1\"}],\"nextCursor\":\"c2\"}"))));
		wire.stubFor(method("prompts/list").withRequestBody(matchingJsonPath("$.params.cursor", equalTo("c2")))
			.willReturn(okJson(result("{\"prompts\":[{\"name\":\"p2\",\"arguments\":[{\"name\":\"a\",\"required\":true}]}],"
					+ "\"nextCursor\":\"c3\"}"))));
		wire.stubFor(method("prompts/list").withRequestBody(matchingJsonPath("$.params.cursor", equalTo("c3")))
			.willReturn(okJson(result("{\"prompts\":[{\"name\":\"p3\"}]}"))));
		wire.stubFor(method("resources/list").withRequestBody(matchingJsonPath("$.params.cursor", absent()))
			.willReturn(okJson(result("{\"resources\":[{\"uri\":\"a://1\",\"name\":\"one\"}],\"nextCursor\":\"r2\"}"))));
		wire.stubFor(method("resources/list").withRequestBody(matchingJsonPath("$.params.cursor", equalTo("r2")))
			.willReturn(okJson(result("{\"resources\":[{\"uri\":\"a://2\",\"name\":\"two\",\"size\":5}]}"))));
		wire.stubFor(method("resources/templates/list").willReturn(
				okJson(result("{\"resourceTemplates\":[{\"uriTemplate\":\"a://{id}\",\"name\":\"t\"}]}"))));

		assertThat(this.client.listPrompts()).extracting("name").containsExactly("p1", "p2", "p3");
		assertThat(this.client.listPrompts().get(1).arguments().get(0).required()).isTrue();
		assertThat(this.client.listResources()).extracting("uri").containsExactly("a://1", "a://2");
		assertThat(this.client.listResourceTemplates()).extracting("uriTemplate").containsExactly("a://{id}");
	}

	@Test
	void aServerThatRepeatsACursorEndsTheListingWithAnError() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[],\"nextCursor\":\"same\"}"))));

		assertThatThrownBy(this.client::listTools).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("cursor");
		assertThat(wire.posts("tools/list")).hasSize(2);
	}

	@Test
	void aToolErrorIsAResultNotAnException() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("tools/call").willReturn(
				okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"no such city\"}],\"isError\":true}"))));

		CallToolResult result = this.client.callTool("get_forecast", Map.of("city", "Atlantis"));

		assertThat(result.isError()).isTrue();
		assertThat(result.text()).isEqualTo("no such city");
	}

	@Test
	void promptsAndResourcesAreMappedToTheModel() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("prompts/get").withRequestBody(matchingJsonPath("$.params.arguments.name", equalTo("Ada")))
			.willReturn(okJson(result("{\"description\":\"hi\",\"messages\":[{\"role\":\"user\",\"content\":"
					+ "{\"type\":\"text\",\"text\":\"Hello Ada\"}}]}"))));
		wire.stubFor(method("resources/read").withRequestBody(matchingJsonPath("$.params.uri", equalTo("demo://readme")))
			.willReturn(okJson(result("{\"contents\":[{\"uri\":\"demo://readme\",\"mimeType\":\"text/plain\",\"text\":\"read me\"}]}"))));

		assertThat(this.client.getPrompt("greeting", Map.of("name", "Ada")).messages().get(0).content())
			.isEqualTo(new dev.mcpx.client.model.Content.Text("Hello Ada"));
		assertThat(this.client.readResource("demo://readme").contents().get(0).text()).isEqualTo("read me");
	}

	// --- errors -------------------------------------------------------------------

	@Test
	void aJsonRpcErrorCarriesCodeMessageAndData() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("tools/call").willReturn(okJson("{\"jsonrpc\":\"2.0\",\"id\":" + ID + ","
				+ "\"error\":{\"code\":-32602,\"message\":\"Unknown tool\",\"data\":{\"tool\":\"nope\"}}}")));

		assertThatThrownBy(() -> this.client.callTool("nope", Map.of())).isInstanceOfSatisfying(
				McpJsonRpcException.class, (ex) -> {
					assertThat(ex.code()).isEqualTo(-32602);
					assertThat(ex.errorMessage()).isEqualTo("Unknown tool");
					assertThat(ex.data().path("tool").asString()).isEqualTo("nope");
					assertThat(ex.upstream()).isEqualTo("wire");
				});
	}

	@Test
	void anHttpErrorStatusIsTypedAndShowsNoSecret() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("tools/list").willReturn(aResponse().withStatus(500).withBody("boom")));

		assertThatThrownBy(this.client::listTools).isInstanceOfSatisfying(McpHttpStatusException.class, (ex) -> {
			assertThat(ex.status()).isEqualTo(500);
			assertThat(ex.getMessage()).doesNotContain(SESSION_ID).doesNotContain("very-secret-token");
		});
	}

	@Test
	void aMalformedBodyIsAProtocolErrorNotAHang() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("tools/list").willReturn(okJson("{this is not json}")));

		assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(this.client::listTools)
			.isInstanceOf(McpProtocolException.class).hasMessageContaining("malformed JSON"));
	}

	@Test
	void aResponseForAnotherIdInAJsonBodyIsAProtocolError() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(okJson("{\"jsonrpc\":\"2.0\",\"id\":987654,\"result\":{}}")));

		assertThatThrownBy(this.client::ping).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("not the response");
	}

	@Test
	void anUnexpectedContentTypeIsAProtocolError() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(aResponse().withHeader("Content-Type", "text/html").withBody("<html>")));

		assertThatThrownBy(this.client::ping).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("text/html");
	}

	@Test
	void a202ForARequestIsAProtocolError() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(aResponse().withStatus(202)));

		assertThatThrownBy(this.client::ping).isInstanceOf(McpProtocolException.class).hasMessageContaining("202");
	}

	@Test
	void aBodyLargerThanTheLimitIsRefused() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(okJson(result("{\"pad\":\"" + "x".repeat(4096) + "\"}"))));
		try (McpClient small = McpClient.builder("wire", wire.mcpUri()).protocol(ProtocolMode.LEGACY).maxMessageBytes(1024).build()) {
			assertThatThrownBy(small::ping).isInstanceOf(McpProtocolException.class).hasMessageContaining("1024 bytes");
		}
	}

	@Test
	void brokenResponsesAreLostStreamsNotHangs() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("tools/list").willReturn(okJson("{\"jsonrpc\":\"2.0\",\"id\":1,\"resu")));
		wire.stubFor(method("prompts/list").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
		wire.stubFor(method("resources/list").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
			.withBody("id: 1\ndata:\n\nretry: 250\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n")));
		wire.stubFor(method("ping").willReturn(aResponse().withFault(Fault.EMPTY_RESPONSE)));

		assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
			assertThatThrownBy(this.client::listTools).isInstanceOf(McpStreamLostException.class);
			assertThatThrownBy(this.client::listPrompts).isInstanceOf(McpStreamLostException.class);
			assertThatThrownBy(this.client::listResources).isInstanceOfSatisfying(McpStreamLostException.class,
					(ex) -> {
						// Where to resume from is kept off the public type, for the recovery layer.
						assertThat(ex).isInstanceOfSatisfying(StreamLost.class, (lost) -> {
							assertThat(lost.resumption().lastEventId()).isEqualTo("2");
							assertThat(lost.resumption().retryMillis()).isEqualTo(250);
						});
						assertThat(ex.method()).isEqualTo("resources/list");
					});
			assertThatThrownBy(this.client::ping).isInstanceOf(McpStreamLostException.class);
		});
	}

	@Test
	void anUnreachableUpstreamIsATransportError() {
		try (McpClient nowhere = McpClient.builder("nowhere", URI.create("http://127.0.0.1:1/mcp"))
			.protocol(ProtocolMode.LEGACY)
			.build()) {
			assertThatThrownBy(nowhere::ping).isInstanceOf(McpTransportException.class)
				.hasMessageContaining("could not reach 127.0.0.1:1 (connection refused)");
		}
	}

	// --- timeouts -----------------------------------------------------------------

	@Test
	void aSlowResponseTimesOutAndTheServerIsToldToCancel() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("tools/call").willReturn(okJson(result("{\"content\":[]}")).withFixedDelay(5000)));
		McpClient impatient = client(Duration.ofMillis(300));

		assertTimeoutPreemptively(Duration.ofSeconds(4), () -> assertThatThrownBy(
				() -> impatient.callTool("slow", Map.of())).isInstanceOf(McpTimeoutException.class));

		// 2025-11-25 basic/utilities/cancellation: the request id the client gave up on.
		long callId = json.readTree(wire.posts("tools/call").get(0).getBodyAsString()).path("id").asLong();
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(wire.posts("notifications/cancelled"))
			.singleElement()
			.satisfies((r) -> assertThat(json.readTree(r.getBodyAsString()).at("/params/requestId").asLong())
				.isEqualTo(callId)));
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		impatient.close();
	}

	@Test
	void anEventStreamThatDribblesForeverIsBoundedByTheRequestTimeout() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
			.withBody(": tick\n".repeat(200))
			.withChunkedDribbleDelay(200, 20_000)));
		McpClient impatient = client(Duration.ofMillis(500));

		assertTimeoutPreemptively(Duration.ofSeconds(5),
				() -> assertThatThrownBy(impatient::ping).isInstanceOf(McpTimeoutException.class));
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		impatient.close();
	}

	// --- lifecycle and concurrency -----------------------------------------------

	@Test
	void closeEndsTheSessionWithDelete() {
		stubHandshake("2025-11-25");
		wire.stubFor(delete(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(200)));
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		this.client.ping();

		this.client.close();

		wire.verify(deleteRequestedFor(urlEqualTo("/mcp")).withHeader("Mcp-Session-Id", equalTo(SESSION_ID)));
		assertThatThrownBy(this.client::ping).isInstanceOf(McpException.class).hasMessageContaining("closed");
	}

	@Test
	void closeIsBoundedWhenTheServerHangsOnDelete() {
		stubHandshake("2025-11-25");
		wire.stubFor(delete(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(200).withFixedDelay(10_000)));
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		this.client.ping();

		assertTimeoutPreemptively(Duration.ofSeconds(5), this.client::close);
	}

	@Test
	void manyThreadsShareOneSessionAndRequestIdsNeverRepeat() throws Exception {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> calls = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				calls.add(pool.submit(this.client::ping));
			}
			for (Future<?> call : calls) {
				call.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(wire.posts("initialize")).hasSize(1);
		Set<Long> ids = new HashSet<>();
		for (LoggedRequest request : wire.posts("ping")) {
			assertThat(ids.add(json.readTree(request.getBodyAsString()).path("id").asLong())).isTrue();
		}
		assertThat(ids).hasSize(64);
	}

	@Test
	void secretsAreSentOnlyAsHeaders() {
		stubHandshake("2025-11-25");
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		this.client.ping();

		wire.verify(0, postRequestedFor(urlEqualTo("/mcp")).withRequestBody(containing("very-secret-token")));
		wire.verify(3, postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization", equalTo(SECRET)));
	}

}
