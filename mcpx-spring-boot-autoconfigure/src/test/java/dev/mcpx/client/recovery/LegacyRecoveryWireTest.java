package dev.mcpx.client.recovery;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpCredentials;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.event.McpRecoveryFailedEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.internal.recovery.RecoveringExecutor;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Legacy recovery rules scripted at the wire level (docs/architecture.md, "Recovery rules"; 2025-11-25
 * transports §Session Management, §Resumability and Redelivery, §Sending Messages rule 6).
 * Session "A" dies, session "B" replaces it.
 */
class LegacyRecoveryWireTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private static final String HANDSHAKE = "handshake";

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("wire", wire.mcpUri())
		.protocol(ProtocolMode.LEGACY)
		.requestTimeout(Duration.ofSeconds(5)));

	private static MappingBuilder inSession(String method, String session) {
		return method(method).withHeader("Mcp-Session-Id", equalTo(session));
	}

	private static String initializeResult() {
		return result("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{},\"prompts\":{},\"resources\":{}},\"serverInfo\":{\"name\":\"w\",\"version\":\"1\"}}");
	}

	/** The first initialize opens session A, every later one session B. */
	private static void stubSessionsAThenB() {
		wire.stubFor(method("initialize").inScenario(HANDSHAKE)
			.whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson(initializeResult()).withHeader("Mcp-Session-Id", "session-A-0123456789"))
			.willSetStateTo("A"));
		wire.stubFor(method("initialize").inScenario(HANDSHAKE)
			.whenScenarioStateIs("A")
			.willReturn(okJson(initializeResult()).withHeader("Mcp-Session-Id", "session-B-0123456789")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		// Tools are listed before a tool's first call; these tests are about other requests.
		wire.stubFor(method("tools/list").atPriority(10).willReturn(okJson(result("{\"tools\":[]}"))));
	}

	private static void stubGone(String session, int status, String message) {
		wire.stubFor(post(urlEqualTo("/mcp")).withHeader("Mcp-Session-Id", equalTo(session))
			.withRequestBody(matchingJsonPath("$.id"))
			.atPriority(1)
			.willReturn(aResponse().withStatus(status).withHeader("Content-Type", "application/json")
				.withBody("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"" + message + "\"},\"id\":null}")));
	}

	@Test
	void aBadRequestNamingTheSessionIsExpiryByDefault() {
		stubSessionsAThenB();
		wire.stubFor(inSession("ping", "session-A-0123456789").willReturn(okJson(result("{}"))));
		wire.stubFor(inSession("tools/call", "session-B-0123456789").willReturn(okJson(result("{\"content\":[]}"))));
		this.clients.client().ping();
		stubGone("session-A-0123456789", 400, "Bad Request: No valid session ID provided");

		assertThat(this.clients.last().callTool("x", Map.of()).isError()).isFalse();
		assertThat(wire.posts("initialize")).hasSize(2);
	}

	@Test
	void aBadRequestIsNotExpiryWhenTheCompatibilityIsOff() {
		stubSessionsAThenB();
		wire.stubFor(inSession("ping", "session-A-0123456789").willReturn(okJson(result("{}"))));
		this.clients.client((b) -> b.recoveryPolicy(RecoveryPolicy.custom().expiryOnBadRequest(false).build())).ping();
		stubGone("session-A-0123456789", 400, "Bad Request: No valid session ID provided");

		assertThatThrownBy(() -> this.clients.last().callTool("x", Map.of()))
			.isInstanceOfSatisfying(McpHttpStatusException.class, (ex) -> assertThat(ex.status()).isEqualTo(400));
		assertThat(wire.posts("initialize")).hasSize(1);
	}

	@Test
	void aBadRequestThatDoesNotNameTheSessionIsAnOrdinaryError() {
		stubSessionsAThenB();
		wire.stubFor(inSession("ping", "session-A-0123456789").willReturn(okJson(result("{}"))));
		this.clients.client().ping();
		stubGone("session-A-0123456789", 400, "Invalid params");

		assertThatThrownBy(() -> this.clients.last().callTool("x", Map.of())).isInstanceOf(McpHttpStatusException.class);
		assertThat(wire.posts("initialize")).hasSize(1);
	}

	@Test
	void a404WithoutASessionIdIsAnOrdinaryError() {
		// The server assigns no session id: rule 3 cannot apply.
		wire.stubFor(method("initialize").willReturn(okJson(initializeResult())));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("ping").willReturn(aResponse().withStatus(404)));

		assertThatThrownBy(this.clients.client()::ping)
			.isInstanceOfSatisfying(McpHttpStatusException.class, (ex) -> assertThat(ex.status()).isEqualTo(404));
		assertThat(wire.posts("initialize")).hasSize(1);
	}

	@Test
	void whenSessionRecoveryIsOffTheCallerSeesTheExpiryAndTheNextCallOpensANewSession() {
		stubSessionsAThenB();
		wire.stubFor(inSession("ping", "session-A-0123456789").willReturn(okJson(result("{}"))));
		wire.stubFor(inSession("ping", "session-B-0123456789").willReturn(okJson(result("{}"))));
		this.clients.client((b) -> b.recoveryPolicy(RecoveryPolicy.custom().sessionExpiry(false).build())).ping();
		stubGone("session-A-0123456789", 404, "Session not found");

		assertThatThrownBy(this.clients.last()::ping).isInstanceOf(McpSessionExpiredException.class)
			.hasMessageContaining("recovery is off");
		assertThat(wire.posts("initialize")).hasSize(1);
		this.clients.last().ping();
		assertThat(wire.posts("initialize")).hasSize(2);
	}

	@Test
	void aFailedReinitializeIsReportedAndTheNextCallRecovers() {
		wire.stubFor(method("initialize").inScenario(HANDSHAKE)
			.whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson(initializeResult()).withHeader("Mcp-Session-Id", "session-A-0123456789"))
			.willSetStateTo("down"));
		wire.stubFor(method("initialize").inScenario(HANDSHAKE)
			.whenScenarioStateIs("down")
			.willReturn(aResponse().withStatus(503))
			.willSetStateTo("back"));
		wire.stubFor(method("initialize").inScenario(HANDSHAKE)
			.whenScenarioStateIs("back")
			.willReturn(okJson(initializeResult()).withHeader("Mcp-Session-Id", "session-B-0123456789")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(inSession("ping", "session-A-0123456789").willReturn(okJson(result("{}"))));
		wire.stubFor(inSession("ping", "session-B-0123456789").willReturn(okJson(result("{}"))));
		this.clients.client().ping();
		stubGone("session-A-0123456789", 404, "Session not found");

		assertThatThrownBy(this.clients.last()::ping).isInstanceOfSatisfying(McpRecoveryFailedException.class, (ex) -> {
			assertThat(ex.getCause()).isInstanceOf(McpHttpStatusException.class);
			assertThat(ex.getSuppressed()).hasSize(1);
		});
		assertThat(this.clients.events()).filteredOn(McpRecoveryFailedEvent.class::isInstance).hasSize(1);

		this.clients.last().ping();

		assertThat(wire.posts("initialize")).hasSize(3);
		assertThat(this.clients.events()).filteredOn(McpSessionRecoveredEvent.class::isInstance).hasSize(1);
	}

	@Test
	void aListingWhoseCursorDiedWithItsSessionRestartsFromTheFirstPage() {
		stubSessionsAThenB();
		for (String session : List.of("session-A-0123456789", "session-B-0123456789")) {
			wire.stubFor(inSession("tools/list", session).withRequestBody(matchingJsonPath("$.params.cursor", absent()))
				.willReturn(okJson(result("{\"tools\":[{\"name\":\"first\",\"inputSchema\":{}}],\"nextCursor\":\"c2\"}"))));
		}
		wire.stubFor(inSession("tools/list", "session-A-0123456789").atPriority(1)
			.withRequestBody(matchingJsonPath("$.params.cursor", equalTo("c2")))
			.willReturn(aResponse().withStatus(404)));
		wire.stubFor(inSession("tools/list", "session-B-0123456789")
			.withRequestBody(matchingJsonPath("$.params.cursor", equalTo("c2")))
			.willReturn(okJson(result("{\"tools\":[{\"name\":\"second\",\"inputSchema\":{}}]}"))));

		assertThat(this.clients.client().listTools()).extracting("name").containsExactly("first", "second");
		// Page 1 in A, page 2 refused in A, then page 1 and page 2 in B: no cursor crossed sessions.
		assertThat(wire.posts("tools/list")).extracting((r) -> r.getHeader("Mcp-Session-Id"))
			.containsExactly("session-A-0123456789", "session-A-0123456789", "session-B-0123456789",
					"session-B-0123456789");
	}

	@Test
	void requestsNamingStateOfTheDeadSessionAreNotReplayed() {
		stubSessionsAThenB();
		wire.stubFor(inSession("ping", "session-A-0123456789").willReturn(okJson(result("{}"))));
		McpClient plain = this.clients.client();
		plain.ping();
		stubGone("session-A-0123456789", 404, "Session not found");
		RecoveringExecutor executor = executorOf(plain);

		for (String method : List.of("resources/subscribe", "tasks/get")) {
			assertThatThrownBy(() -> executor.execute(new McpRequest(method, null, null, Duration.ofSeconds(2))))
				.isInstanceOf(McpSessionExpiredException.class)
				.hasMessageContaining("expired session");
			assertThat(wire.posts(method)).hasSize(1);
		}
	}

	@Test
	void refusedCredentialsAreRefreshedAndTheRequestSentOnceMore() {
		wire.stubFor(method("initialize").withHeader("Authorization", equalTo("Bearer old"))
			.willReturn(aResponse().withStatus(401)));
		wire.stubFor(method("initialize").withHeader("Authorization", equalTo("Bearer new"))
			.willReturn(okJson(initializeResult()).withHeader("Mcp-Session-Id", "session-A-0123456789")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("ping").willReturn(okJson(result("{}"))));
		AtomicInteger refreshes = new AtomicInteger();
		McpCredentials credentials = new McpCredentials() {

			private volatile String token = "old";

			@Override
			public void apply(HttpHeaders headers) {
				headers.setBearerAuth(this.token);
			}

			@Override
			public boolean refresh() {
				refreshes.incrementAndGet();
				this.token = "new";
				return true;
			}

		};

		this.clients.client((b) -> b.credentials(credentials)).ping();

		assertThat(refreshes).hasValue(1);
		assertThat(wire.posts("initialize")).hasSize(2);
	}

	@Test
	void refusedCredentialsThatCannotBeRefreshedAreATypedError() {
		wire.stubFor(method("initialize").willReturn(aResponse().withStatus(401)));

		assertThatThrownBy(this.clients.client((b) -> b.header("Authorization", "Bearer leaked?"))::ping)
			.isInstanceOfSatisfying(McpAuthenticationException.class, (ex) -> {
				assertThat(ex.status()).isEqualTo(401);
				assertThat(ex.getMessage()).doesNotContain("leaked");
			});
	}

	@Test
	void aBrokenStreamIsResumedAfterTheRetryDelayTheServerAskedFor() {
		stubSessionsAThenB();
		wire.stubFor(inSession("tools/call", "session-A-0123456789").willReturn(aResponse()
			.withHeader("Content-Type", "text/event-stream")
			.withBody("id: prime-1\nretry: 400\ndata:\n\n")));
		wire.stubFor(get(urlEqualTo("/mcp")).withHeader("Last-Event-ID", equalTo("prime-1"))
			.withHeader("Mcp-Session-Id", equalTo("session-A-0123456789"))
			.willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
				// Request ids: initialize 1, tools/list (before the first call) 2, tools/call 3.
				.withBody("id: e-2\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"resumed\"}]}}\n\n")));

		assertThat(this.clients.client().callTool("delete_item", Map.of()).text()).isEqualTo("resumed");

		// 2025-11-25 transports §Sending Messages rule 6: the client MUST respect retry.
		LoggedRequest call = wire.posts("tools/call").get(0);
		LoggedRequest resume = wire.findAll(getRequestedFor(urlEqualTo("/mcp"))).get(0);
		assertThat(resume.getLoggedDate().getTime() - call.getLoggedDate().getTime()).isGreaterThanOrEqualTo(400);
		// §Listening for Messages: a GET lists text/event-stream in Accept.
		assertThat(resume.getHeader("Accept")).contains("text/event-stream");
		assertThat(resume.getHeader("MCP-Protocol-Version")).isEqualTo("2025-11-25");
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aResumptionAnswered404ReissuesAReadShapedRequestInANewSession() {
		stubSessionsAThenB();
		wire.stubFor(inSession("resources/read", "session-A-0123456789").willReturn(aResponse()
			.withHeader("Content-Type", "text/event-stream")
			.withBody("id: prime-1\nretry: 10\ndata:\n\n")));
		wire.stubFor(get(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(404)));
		wire.stubFor(inSession("resources/read", "session-B-0123456789")
			.willReturn(okJson(result("{\"contents\":[{\"uri\":\"a://1\",\"text\":\"fresh\"}]}"))));

		assertThat(this.clients.client().readResource("a://1").contents().get(0).text()).isEqualTo("fresh");
		assertThat(wire.posts("initialize")).hasSize(2);
	}

	@Test
	void aServerThatKeepsNoEventsEndsResumptionAndTheGateDecides() {
		stubSessionsAThenB();
		wire.stubFor(inSession("resources/read", "session-A-0123456789").inScenario("r")
			.whenScenarioStateIs(Scenario.STARTED)
			.willReturn(aResponse().withHeader("Content-Type", "text/event-stream").withBody("id: ev-1\ndata:\n\n"))
			.willSetStateTo("again"));
		wire.stubFor(inSession("resources/read", "session-A-0123456789").inScenario("r").whenScenarioStateIs("again")
			.willReturn(okJson(result("{\"contents\":[{\"uri\":\"a://1\",\"text\":\"second\"}]}"))));
		// The resumed GET stays open with keep-alive comments and never replays anything.
		wire.stubFor(get(urlEqualTo("/mcp")).willReturn(aResponse().withHeader("Content-Type", "text/event-stream")
			.withBody(": keep-alive\n".repeat(100))
			.withChunkedDribbleDelay(100, 20_000)));

		McpClient client = this.clients.client((b) -> b.requestTimeout(Duration.ofSeconds(20)));
		assertThat(client.readResource("a://1").contents().get(0).text()).isEqualTo("second");
		// One resumption, given up on; the read-shaped request was then re-issued in the same session.
		assertThat(wire.findAll(getRequestedFor(urlEqualTo("/mcp")))).hasSize(1);
		assertThat(wire.posts("resources/read")).hasSize(2);
		assertThat(wire.posts("initialize")).hasSize(1);
	}

	@Test
	void keepaliveFindsAnExpiredSessionBeforeACallerDoes() {
		stubSessionsAThenB();
		wire.stubFor(inSession("ping", "session-B-0123456789").willReturn(okJson(result("{}"))));
		wire.stubFor(inSession("tools/list", "session-A-0123456789").willReturn(okJson(result("{\"tools\":[]}"))));
		this.clients.client((b) -> b.keepaliveInterval(Duration.ofMillis(100))).listTools();
		stubGone("session-A-0123456789", 404, "Session not found");

		// Nobody calls: the keepalive's ping meets the 404 and recovers the session.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(this.clients.events()).filteredOn(McpSessionRecoveredEvent.class::isInstance).hasSize(1);
			assertThat(wire.posts("initialize")).hasSize(2);
		});
	}

	/**
	 * The worst sequence the bound allows: the call's stream is lost (it may have run), its
	 * re-issue meets the forgotten session (the 404 proves it did not run), and the send
	 * into the renewed session is lost too (it may have run). Three sends, each with a new
	 * id; at most two executions; then the answer, with the whole story.
	 */
	@Test
	void theWorstSequenceSendsACallThreeTimesAndRunsItAtMostTwice() {
		stubSessionsAThenB();
		wire.stubFor(method("tools/list").atPriority(5).willReturn(okJson(result("{\"tools\":[{\"name\":\"set_value\","
				+ "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"idempotentHint\":true}}]}"))));
		wire.stubFor(inSession("tools/call", "session-A-0123456789").inScenario("worst")
			.whenScenarioStateIs(Scenario.STARTED)
			.willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER))
			.willSetStateTo("forgotten"));
		wire.stubFor(inSession("tools/call", "session-A-0123456789").inScenario("worst")
			.whenScenarioStateIs("forgotten")
			.willReturn(aResponse().withStatus(404).withHeader("Content-Type", "application/json")
				.withBody("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,\"message\":\"Session not found\"},\"id\":null}")));
		wire.stubFor(inSession("tools/call", "session-B-0123456789")
			.willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));

		assertThatThrownBy(() -> this.clients.client().callTool("set_value", Map.of("value", 1)))
			.isInstanceOfSatisfying(McpStreamLostException.class, (ex) -> assertThat(ex.getSuppressed()).hasSize(2));

		List<LoggedRequest> calls = wire.posts("tools/call");
		assertThat(calls).extracting((call) -> call.getHeader("Mcp-Session-Id"))
			.containsExactly("session-A-0123456789", "session-A-0123456789", "session-B-0123456789");
		assertThat(calls).extracting((call) -> json(call).path("id").asLong()).doesNotHaveDuplicates();
		// Of the three, only the one answered 404 provably did not run.
		assertThat(calls.size() - 1).isEqualTo(RecoveringExecutor.MAX_EXECUTIONS);
		assertThat(wire.posts("initialize")).hasSize(2);
		assertThat(this.clients.events()).extracting((event) -> event.getClass().getSimpleName())
			.containsExactly("McpRequestReissuedEvent", "McpSessionExpiredEvent", "McpSessionRecoveredEvent",
					"McpCatalogueInvalidatedEvent", "McpRequestReissuedEvent");
	}

	private static tools.jackson.databind.JsonNode json(LoggedRequest request) {
		return tools.jackson.databind.json.JsonMapper.builder().build().readTree(request.getBodyAsString());
	}

	private static RecoveringExecutor executorOf(McpClient client) {
		try {
			java.lang.reflect.Field field = client.getClass().getDeclaredField("executor");
			field.setAccessible(true);
			return (RecoveringExecutor) field.get(client);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
