package dev.mcpx.client;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit.Stubbing;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static dev.mcpx.testsupport.McpWireMock.ID;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static dev.mcpx.testsupport.McpWireMock.sent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Era detection in {@code protocol: auto} as the 2026-07-28 revision words it
 * (basic/versioning §Backward Compatibility: "a recognized modern JSON-RPC error identifies a
 * modern server ... Anything else identifies a legacy server"; transports/streamable-http
 * §Backward Compatibility), against scripted answers to {@code server/discover}, counting what
 * the server received.
 */
class EraDetectionWireTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private static final String SESSION_ID = "sess-0123456789abcdef";

	private static final String TOKEN = "very-secret-token-4711";

	/**
	 * What Spring AI 2.0.1's MCP server (STATELESS) answers a method it has no handler for,
	 * {@code server/discover} among them: HTTP 500 and a serialized Java exception, not a
	 * JSON-RPC envelope, as observed against that server.
	 */
	private static final String SERIALIZED_EXCEPTION = "{\"jsonRpcError\":{\"code\":-32603,\"message\":\"Failed to "
			+ "handle request. Check server logs for details.\",\"data\":null},\"cause\":null,\"stackTrace\":[{"
			+ "\"classLoaderName\":\"app\",\"declaringClass\":\"io.modelcontextprotocol.server.McpStatelessServer\","
			+ "\"methodName\":\"handle\",\"lineNumber\":212}],\"message\":\"Failed to handle request\","
			+ "\"localizedMessage\":\"Failed to handle request\",\"suppressed\":[]}";

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	private McpClient client;

	private WireMockServer restarted;

	@AfterEach
	void close() {
		if (this.client != null) {
			this.client.close();
		}
		if (this.restarted != null) {
			this.restarted.stop();
		}
	}

	private McpClient client(String url, Consumer<McpClientBuilder> customizer) {
		McpClientBuilder builder = McpClient.builder("auto", URI.create(url))
			.header("Authorization", "Bearer " + TOKEN)
			.requestTimeout(Duration.ofSeconds(5))
			.eventListener(this.events::add);
		customizer.accept(builder);
		this.client = builder.build();
		return this.client;
	}

	private McpClient client() {
		return client(wire.mcpUrl(), (b) -> {
		});
	}

	private static ResponseDefinitionBuilder modernDiscovery() {
		return okJson(result("{\"resultType\":\"complete\",\"supportedVersions\":[\"2026-07-28\"],"
				+ "\"capabilities\":{\"tools\":{}},\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
				+ "{\"name\":\"wire-modern\",\"version\":\"2.0\"}}}"));
	}

	/** A legacy server: initialize, its session, and one read-only tool in it. */
	private static void stubLegacy(Stubbing server) {
		server.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"wire-legacy\",\"version\":\"1.0\"}}"))
			.withHeader("Mcp-Session-Id", SESSION_ID)));
		server.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		server.stubFor(method("tools/list").withHeader("Mcp-Session-Id", equalTo(SESSION_ID))
			.willReturn(okJson(result("{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"},"
					+ "\"annotations\":{\"readOnlyHint\":true}}]}"))));
		server.stubFor(method("tools/call").withHeader("Mcp-Session-Id", equalTo(SESSION_ID))
			.willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"legacy ok\"}]}"))));
	}

	private static void stubModernTools(Stubbing server) {
		server.stubFor(method("tools/list").withHeader("MCP-Protocol-Version", equalTo("2026-07-28"))
			.willReturn(okJson(result("{\"resultType\":\"complete\",\"tools\":[{\"name\":\"echo\",\"inputSchema\":"
					+ "{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}]}"))));
		server.stubFor(method("tools/call").withHeader("MCP-Protocol-Version", equalTo("2026-07-28"))
			.willReturn(okJson(result("{\"resultType\":\"complete\",\"content\":[{\"type\":\"text\","
					+ "\"text\":\"modern ok\"}]}"))));
	}

	private static List<LoggedRequest> posts(Stubbing server, String method) {
		return server.findAll(sent(method));
	}

	/** Every answer to {@code server/discover} that is neither a discovery result nor a recognized modern error. */
	private static ResponseDefinitionBuilder legacyAnswer(String answer) {
		return switch (answer) {
			case "500-serialized-exception" -> aResponse().withStatus(500)
				.withHeader("Content-Type", "application/json")
				.withBody(SERIALIZED_EXCEPTION);
			case "501-empty" -> aResponse().withStatus(501);
			case "502-html" -> aResponse().withStatus(502)
				.withHeader("Content-Type", "text/html")
				.withBody("<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>");
			case "503-text" -> aResponse().withStatus(503)
				.withHeader("Content-Type", "text/plain")
				.withHeader("Retry-After", "1")
				.withBody("Service Unavailable");
			case "500-json-rpc-internal-error" -> jsonRpcError(500, -32603, "Internal error");
			case "400-code-of-2025-11-25-in-the-reserved-range" -> jsonRpcError(400, -32042, "URL elicitation required");
			case "200-html-page" -> aResponse().withStatus(200)
				.withHeader("Content-Type", "text/html; charset=utf-8")
				.withBody("<!doctype html><html><body><h1>Welcome</h1><p>Sign in to continue.</p></body></html>");
			case "200-empty-body" -> aResponse().withStatus(200)
				.withHeader("Content-Type", "application/json")
				.withHeader("Content-Length", "0");
			case "200-json-not-json-rpc" -> okJson("{\"status\":\"UP\",\"components\":{\"db\":{\"status\":\"UP\"}}}");
			case "200-serialized-exception" -> okJson(SERIALIZED_EXCEPTION);
			default -> throw new IllegalArgumentException(answer);
		};
	}

	private static ResponseDefinitionBuilder jsonRpcError(int status, int code, String message) {
		return aResponse().withStatus(status)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"jsonrpc\":\"2.0\",\"id\":" + ID + ",\"error\":{\"code\":" + code
					+ ",\"message\":\"" + message + "\"}}");
	}

	private List<ProtocolEra> detected() {
		return this.events.stream()
			.filter(McpEraDetectedEvent.class::isInstance)
			.map((e) -> ((McpEraDetectedEvent) e).era())
			.toList();
	}

	// --- any other answer identifies a legacy server ------------------------------------------------

	@ParameterizedTest
	@ValueSource(strings = { "500-serialized-exception", "501-empty", "502-html", "503-text",
			"500-json-rpc-internal-error", "400-code-of-2025-11-25-in-the-reserved-range", "200-html-page",
			"200-empty-body", "200-json-not-json-rpc", "200-serialized-exception" })
	void anyAnswerToServerDiscoverThatIsNotModernIdentifiesALegacyServerAndTheCallSucceeds(String answer) {
		wire.stubFor(method("server/discover").willReturn(legacyAnswer(answer)));
		stubLegacy(wire);
		McpClient auto = client();

		assertThat(auto.callTool("echo", Map.of("n", 1)).text()).isEqualTo("legacy ok");
		assertThat(auto.era()).contains(ProtocolEra.LEGACY);
		assertThat(wire.posts("server/discover")).hasSize(1);
		assertThat(wire.posts("initialize")).hasSize(1);
		assertThat(wire.posts("tools/call")).hasSize(1);

		// The era is kept: the next call goes straight to the session.
		assertThat(auto.callTool("echo", Map.of("n", 2)).text()).isEqualTo("legacy ok");
		assertThat(wire.posts("server/discover")).hasSize(1);
		assertThat(wire.posts("initialize")).hasSize(1);
		assertThat(wire.posts("tools/call")).hasSize(2);
		assertThat(detected()).containsExactly(ProtocolEra.LEGACY);
	}

	@ParameterizedTest
	@ValueSource(ints = { -32020, -32021 })
	void aRecognizedModernErrorIdentifiesAModernServerAndNothingFallsBackToInitialize(int code) {
		wire.stubFor(method("server/discover").willReturn(jsonRpcError(400, code, "refused")));
		stubLegacy(wire);

		assertThatThrownBy(client()::listTools)
			.isInstanceOfSatisfying(dev.mcpx.client.error.McpJsonRpcException.class,
					(ex) -> assertThat(ex.code()).isEqualTo(code));
		assertThat(wire.posts("initialize")).isEmpty();
		assertThat(wire.posts("tools/call")).isEmpty();
	}

	@Test
	void aClientPinnedToModernMeetingALegacyAnswerIsToldWhatItWasAndToUseAutoOrLegacy() {
		wire.stubFor(method("server/discover").willReturn(legacyAnswer("500-serialized-exception")));
		stubLegacy(wire);
		McpClient modern = client(wire.baseUrl() + "/mcp", (b) -> b.protocol(ProtocolMode.MODERN));

		assertThatThrownBy(modern::listTools).isInstanceOf(McpProtocolException.class)
			.hasMessageContaining("server/discover failed with HTTP 500")
			.hasMessageContaining("does not speak 2026-07-28")
			.hasMessageContaining("auto or legacy");
		assertThat(wire.posts("initialize")).isEmpty();
	}

	// --- no answer is no evidence ------------------------------------------------------------------

	@Test
	void aRefusedConnectionIsNoEvidenceTheCallFailsAsARecoveryFailureAndTheNextCallDetectsAgain() throws IOException {
		int port;
		try (ServerSocket free = new ServerSocket(0)) {
			port = free.getLocalPort();
		}
		McpClient auto = client("http://127.0.0.1:" + port + "/mcp", (b) -> {
		});

		assertThatThrownBy(auto::listTools)
			.isInstanceOf(McpRecoveryFailedException.class)
			.hasMessageContaining("server/discover")
			.hasMessageContaining("got no answer")
			.hasMessageContaining("connection refused")
			.hasCauseInstanceOf(McpTransportException.class);
		assertThat(auto.era()).isEmpty();

		this.restarted = new WireMockServer(McpWireMock.options().port(port));
		this.restarted.start();
		this.restarted.stubFor(method("server/discover").willReturn(modernDiscovery()));
		stubModernTools(this.restarted);

		assertThat(auto.callTool("echo", Map.of()).text()).isEqualTo("modern ok");
		assertThat(auto.era()).contains(ProtocolEra.MODERN);
		assertThat(posts(this.restarted, "server/discover")).hasSize(1);
		assertThat(posts(this.restarted, "initialize")).isEmpty();
		assertThat(detected()).containsExactly(ProtocolEra.MODERN);
	}

	@Test
	void aConnectionResetBeforeAnyStatusIsNoEvidenceAndTheNextCallDetectsAgain() {
		wire.stubFor(method("server/discover").inScenario("reset").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER))
			.willSetStateTo("up"));
		wire.stubFor(method("server/discover").inScenario("reset").whenScenarioStateIs("up")
			.willReturn(modernDiscovery()));
		stubModernTools(wire);
		McpClient auto = client();

		assertThatThrownBy(auto::listTools)
			.isInstanceOf(McpRecoveryFailedException.class)
			.hasMessageContaining("got no answer")
			.hasCauseInstanceOf(McpStreamLostException.class);
		assertThat(wire.posts("initialize")).isEmpty();

		assertThat(auto.callTool("echo", Map.of()).text()).isEqualTo("modern ok");
		assertThat(wire.posts("server/discover")).hasSize(2);
		assertThat(wire.posts("initialize")).isEmpty();
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aDiscoveryThatTimesOutOverHttpIsNoEvidenceAndTheNextCallDetectsAgain() {
		wire.stubFor(method("server/discover").inScenario("slow").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(modernDiscovery().withFixedDelay(3000))
			.willSetStateTo("fast"));
		wire.stubFor(method("server/discover").inScenario("slow").whenScenarioStateIs("fast")
			.willReturn(modernDiscovery()));
		stubModernTools(wire);
		McpClient auto = client(wire.mcpUrl(), (b) -> b.handshakeTimeout(Duration.ofMillis(400)));

		assertThatThrownBy(auto::listTools)
			.isInstanceOf(McpRecoveryFailedException.class)
			.hasMessageContaining("got no answer")
			.hasCauseInstanceOf(McpTimeoutException.class);
		assertThat(wire.posts("initialize")).isEmpty();

		assertThat(auto.callTool("echo", Map.of()).text()).isEqualTo("modern ok");
		assertThat(wire.posts("server/discover")).hasSize(2);
		assertThat(wire.posts("initialize")).isEmpty();
	}

	// --- an authorization challenge is not an era -----------------------------------------------------

	@Test
	void a401ToServerDiscoverIsLeftToTheCredentialsNotTakenForALegacyServer() {
		wire.stubFor(method("server/discover").willReturn(aResponse().withStatus(401)
			.withHeader("WWW-Authenticate", "Bearer realm=\"mcp\"")));
		stubLegacy(wire);

		assertThatThrownBy(client()::listTools).isInstanceOf(McpAuthenticationException.class);
		assertThat(wire.posts("initialize")).isEmpty();
	}

	@Test
	void refreshedCredentialsAfterA401ToServerDiscoverDetectTheEraWithTheNewCredentials() {
		wire.stubFor(method("server/discover").withHeader("Authorization", equalTo("Bearer old-token-123456"))
			.willReturn(aResponse().withStatus(401).withHeader("WWW-Authenticate", "Bearer realm=\"mcp\"")));
		wire.stubFor(method("server/discover").withHeader("Authorization", equalTo("Bearer new-token-123456"))
			.willReturn(modernDiscovery()));
		stubModernTools(wire);
		AtomicInteger refreshes = new AtomicInteger();
		McpCredentials credentials = new McpCredentials() {

			@Override
			public void apply(HttpHeaders headers) {
				headers.set(HttpHeaders.AUTHORIZATION,
						(refreshes.get() == 0) ? "Bearer old-token-123456" : "Bearer new-token-123456");
			}

			@Override
			public boolean refresh() {
				refreshes.incrementAndGet();
				return true;
			}

		};
		McpClient auto = client(wire.mcpUrl(), (b) -> b.credentials(credentials));

		assertThat(auto.callTool("echo", Map.of()).text()).isEqualTo("modern ok");
		assertThat(refreshes).hasValue(1);
		assertThat(wire.posts("server/discover")).hasSize(2);
		assertThat(wire.posts("initialize")).isEmpty();
	}

	// --- neither era: the failure names both answers ------------------------------------------------------

	@Test
	void whenInitializeFailsTooTheFailureNamesBothAnswersRedactedAndTheNextCallDetectsAgain() {
		wire.stubFor(method("server/discover").willReturn(jsonRpcError(500, -32603, "rejected Bearer " + TOKEN)));
		wire.stubFor(method("initialize").willReturn(jsonRpcError(503, -32000, "overloaded; token " + TOKEN)));
		McpClient auto = client();

		assertThatThrownBy(auto::listTools)
			.isInstanceOfSatisfying(McpProtocolException.class, (ex) -> {
				assertThat(ex.getMessage()).contains("neither era")
					.contains("server/discover failed with HTTP 500 (JSON-RPC error -32603")
					.contains("initialize failed with HTTP 503 (JSON-RPC error -32000")
					.contains("the next call detects the era again")
					.doesNotContain(TOKEN);
				assertThat(ex.getCause()).isInstanceOf(McpHttpStatusException.class);
				assertThat(ex.getSuppressed()).singleElement()
					.isInstanceOfSatisfying(McpHttpStatusException.class, (d) -> assertThat(d.status()).isEqualTo(500));
			});
		assertThat(auto.era()).isEmpty();
		assertThat(wire.posts("server/discover")).hasSize(1);
		assertThat(wire.posts("initialize")).hasSize(1);

		assertThatThrownBy(auto::listTools).isInstanceOf(McpProtocolException.class);
		assertThat(wire.posts("server/discover")).hasSize(2);
		assertThat(wire.posts("initialize")).hasSize(2);
		assertThat(detected()).isEmpty();
	}

	@Test
	void whenInitializeGetsNoAnswerAfterALegacyAnswerTheCallFailsAsARecoveryFailureNamingBoth() {
		wire.stubFor(method("server/discover").willReturn(legacyAnswer("500-serialized-exception")));
		wire.stubFor(method("initialize").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

		assertThatThrownBy(client()::listTools)
			.isInstanceOfSatisfying(McpRecoveryFailedException.class, (ex) -> {
				assertThat(ex.getMessage()).contains("server/discover failed with HTTP 500")
					.contains("initialize")
					.contains("got no answer")
					.doesNotContain(TOKEN);
				assertThat(ex.getCause()).isInstanceOf(McpStreamLostException.class);
				assertThat(ex.getSuppressed()).hasAtLeastOneElementOfType(McpHttpStatusException.class);
			});
		assertThat(wire.posts("initialize")).hasSize(1);
		assertThat(wire.posts("tools/call")).isEmpty();
	}

}
