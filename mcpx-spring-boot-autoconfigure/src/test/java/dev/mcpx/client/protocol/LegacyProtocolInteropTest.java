package dev.mcpx.client.protocol;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import dev.mcpx.client.McpCallOptions;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.McpInputHandler;
import dev.mcpx.client.McpSubscription;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Completion;
import dev.mcpx.client.model.CompletionReference;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.client.model.McpResourceUpdate;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ScriptedInputHandler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.fail;

/**
 * The client protocol of the legacy era against a real server: the TypeScript SDK v1 peer
 * {@code protocol-server.mjs}, which records what it received. Each test asserts what the
 * server saw: the answers to its elicitations, samplings and roots requests (2025-11-25
 * client/elicitation, client/sampling, client/roots), progress that kept a call alive
 * (basic/utilities/progress), the cancellation of an interrupted call
 * (basic/utilities/cancellation), the log level (server/utilities/logging), subscriptions
 * re-established in a new session (server/resources §Subscriptions), completions
 * (server/utilities/completion).
 */
class LegacyProtocolInteropTest {

	private static final JsonMapper JSON = JsonMapper.shared();

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static NodePeer peer;

	@BeforeAll
	static void startPeer() {
		peer = NodePeer.start(NodePeer.PROTOCOL);
	}

	@AfterAll
	static void stopPeer() {
		if (peer != null) {
			peer.close();
		}
	}

	@BeforeEach
	void reset() {
		peer.reset();
	}

	@Test
	void anElicitationOnTheCallsStreamIsAnsweredAndOmittedFieldsGetTheirDefaults() {
		ScriptedInputHandler handler = ScriptedInputHandler.acceptingForms("{\"name\":\"Grace\"}");
		try (McpClient client = client(handler).build()) {
			CallToolResult result = client.callTool("ask_name", Map.of());
			assertThat(result.isError()).as(result.text()).isFalse();
		}
		JsonNode seen = peer.admin("GET", "protocol");
		assertThat(seen.path("elicitations")).hasSize(1);
		JsonNode content = seen.path("elicitations").get(0).path("content");
		// the handler's value, the schema's default for the field it left out, nothing for a field without one
		assertThat(content.path("name").asString()).isEqualTo("Grace");
		assertThat(content.path("age").asInt()).isEqualTo(36);
		assertThat(content.has("subscribe")).isFalse();
		assertThat(handler.requests()).singleElement()
			.satisfies((request) -> assertThat(request.originalMethod()).isEqualTo("tools/call"));
	}

	@Test
	void anElicitationOnTheListenStreamIsAnsweredInTheSameSession() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> JSON.createObjectNode().put("action", "decline"));
		try (McpClient client = client(handler).build()) {
			client.listTools();
			awaitTrue(() -> peer.counts().path("gets").asInt() >= 1, "the client opened no GET stream");
			CallToolResult result = client.callTool("ask_name", Map.of("via", "listen"));
			assertThat(result.isError()).as(result.text()).isFalse();
		}
		JsonNode seen = peer.admin("GET", "protocol");
		assertThat(seen.path("elicitations")).hasSize(1);
		assertThat(seen.path("elicitations").get(0).path("action").asString()).isEqualTo("decline");
	}

	@Test
	void samplingAndRootsAreAnsweredThroughTheSameHandler() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("sampling/createMessage", "roots/list"),
				(request) -> {
					if (request.method().equals("roots/list")) {
						ObjectNode roots = JSON.createObjectNode();
						roots.putArray("roots").addObject().put("uri", "file:///work/project").put("name", "project");
						return roots;
					}
					return ScriptedInputHandler.sampled("test-model", "Hello from the client");
				});
		try (McpClient client = client(handler).build()) {
			assertThat(client.callTool("ask_model", Map.of()).isError()).isFalse();
			assertThat(client.callTool("ask_roots", Map.of()).isError()).isFalse();
			client.rootsChanged();
		}
		JsonNode seen = peer.admin("GET", "protocol");
		assertThat(seen.path("samplings").get(0).path("content").path("text").asString())
			.isEqualTo("Hello from the client");
		assertThat(seen.path("roots").get(0).path("roots").get(0).path("uri").asString())
			.isEqualTo("file:///work/project");
		assertThat(peer.counts().path("requests").path("notifications/roots/list_changed").asInt()).isEqualTo(1);
	}

	@Test
	void aRequestForACapabilityTheClientDidNotDeclareGetsMethodNotFound() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> fail("not asked"));
		try (McpClient client = client(handler).build()) {
			assertThat(client.callTool("ask_model", Map.of()).isError()).isTrue();
		}
		JsonNode errors = peer.admin("GET", "protocol").path("errors");
		assertThat(errors).hasSize(1);
		assertThat(errors.get(0).path("code").asInt()).isEqualTo(-32601);
		assertThat(handler.requests()).isEmpty();
	}

	@Test
	void aHandlerThatThrowsIsAnsweredWithAnErrorThatCarriesNoSecret() {
		String secret = "Bearer s3cr3t-t0ken-that-must-not-leak";
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("roots/list"), (request) -> {
			throw new IllegalStateException("cannot list roots with " + secret);
		});
		try (McpClient client = client(handler).header("Authorization", secret).build()) {
			assertThat(client.callTool("ask_roots", Map.of()).isError()).isTrue();
		}
		JsonNode error = peer.admin("GET", "protocol").path("errors").get(0);
		assertThat(error.path("code").asInt()).isEqualTo(-32603);
		assertThat(error.path("message").asString()).contains("input handler failed").doesNotContain("s3cr3t");
	}

	@Test
	void aHandlerThatDoesNotAnswerInTimeIsAnsweredWithAnErrorAndTheCallCompletes() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("roots/list"), (request) -> {
			try {
				Thread.sleep(60_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return JSON.createObjectNode();
		});
		try (McpClient client = client(handler).inputHandlerTimeout(Duration.ofMillis(300)).build()) {
			assertThat(client.callTool("ask_roots", Map.of()).isError()).isTrue();
		}
		JsonNode error = peer.admin("GET", "protocol").path("errors").get(0);
		assertThat(error.path("code").asInt()).isEqualTo(-32603);
		assertThat(error.path("message").asString()).contains("did not answer within 300 ms");
	}

	@Test
	void aToolThatReportsProgressForLongerThanItsTimeoutCompletes() {
		List<McpProgress> progress = new CopyOnWriteArrayList<>();
		try (McpClient client = client(null).build()) {
			CallToolResult result = client.callTool("report_progress", Map.of("steps", 6, "intervalMs", 400),
					McpCallOptions.builder().timeout(Duration.ofMillis(1000)).onProgress(progress::add).build());
			assertThat(result.text()).isEqualTo("done after 6 steps");
		}
		JsonNode seen = peer.admin("GET", "protocol");
		assertThat(seen.path("completed").path("report_progress").asInt()).isEqualTo(1);
		assertThat(seen.path("cancelled").asInt()).isZero();
		assertThat(progress).extracting(McpProgress::progress).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
		assertThat(progress.get(0).total()).isEqualTo(6.0);
		assertThat(progress.get(0).message()).isEqualTo("step 1");
	}

	@Test
	void withoutResettingOnProgressTheTimeoutEndsTheCallAndTheServerIsTold() {
		try (McpClient client = client(null).build()) {
			assertThatExceptionOfType(McpTimeoutException.class)
				.isThrownBy(() -> client.callTool("report_progress", Map.of("steps", 6, "intervalMs", 400),
						McpCallOptions.builder().timeout(Duration.ofMillis(1000)).resetTimeoutOnProgress(false).build()));
			awaitTrue(() -> peer.admin("GET", "protocol").path("cancelled").asInt() == 1,
					"the server was not told the call was cancelled");
		}
		assertThat(peer.admin("GET", "protocol").path("completed").path("report_progress").asInt()).isZero();
	}

	@Test
	void theHardCapEndsACallThatKeepsReportingProgress() {
		try (McpClient client = client(null).build()) {
			assertThatExceptionOfType(McpTimeoutException.class)
				.isThrownBy(() -> client.callTool("report_progress", Map.of("steps", 20, "intervalMs", 300),
						McpCallOptions.builder()
							.timeout(Duration.ofMillis(1000))
							.maxTotalTimeout(Duration.ofMillis(1500))
							.build()));
		}
		awaitTrue(() -> peer.admin("GET", "protocol").path("cancelled").asInt() == 1,
				"the server was not told the call was cancelled");
	}

	@Test
	void interruptingTheCallerCancelsTheCallOnTheWireNeverSendsItAgainAndKeepsTheInterruptFlag() throws Exception {
		try (McpClient client = client(null).build()) {
			client.listTools();
			Throwable[] failure = new Throwable[1];
			boolean[] flag = new boolean[1];
			Thread thread = new Thread(() -> {
				try {
					client.callTool("wait_for_cancel", Map.of("ms", 30_000), McpCallOptions.defaults());
				}
				catch (RuntimeException ex) {
					failure[0] = ex;
					flag[0] = Thread.currentThread().isInterrupted();
				}
			});
			thread.start();
			awaitTrue(() -> peer.counts().path("executions").path("wait_for_cancel").asInt() == 1,
					"the tool did not start");
			thread.interrupt();
			thread.join(WAIT.toMillis());
			// not the request timeout (15 s): the interrupt itself ended the wait
			assertThat(failure[0]).isInstanceOf(McpCancelledException.class);
			assertThat(flag[0]).isTrue();
			awaitTrue(() -> peer.admin("GET", "protocol").path("cancelled").asInt() == 1,
					"the server was not told the call was cancelled");
			assertThat(peer.counts().path("executions").path("wait_for_cancel").asInt()).isEqualTo(1);
			assertThat(peer.counts().path("requests").path("notifications/cancelled").asInt()).isEqualTo(1);
			assertThat(peer.counts().path("ids").path("wait_for_cancel")).hasSize(1);
		}
	}

	@Test
	void serverLogsReachTheUpstreamLoggerAtTheLevelAskedForAfterEveryHandshake() {
		LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
		Logger upstreamLogger = context.getLogger("dev.mcpx.upstream.protocol");
		ListAppender<ILoggingEvent> appender = new ListAppender<>();
		appender.start();
		Level levelBefore = upstreamLogger.getLevel();
		upstreamLogger.setLevel(Level.DEBUG);
		upstreamLogger.addAppender(appender);
		try (McpClient client = client(null).serverLogLevel("warning").build()) {
			client.listTools();
			// the server sends log messages unrelated to a request on the GET stream only
			awaitTrue(() -> peer.counts().path("gets").asInt() >= 1, "the client opened no GET stream");
			client.callTool("log_messages", Map.of());
			awaitTrue(() -> appender.list.size() >= 2, "the server's log messages were not written");
			peer.forgetSessions();
			client.ping();
		}
		finally {
			upstreamLogger.detachAppender(appender);
			upstreamLogger.setLevel(levelBefore);
		}
		// the server filtered by the level it was told, in the first session and the recovered one
		assertThat(appender.list).extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.ERROR);
		assertThat(appender.list.get(0).getFormattedMessage()).isEqualTo("[protocol] peer: a warning message");
		JsonNode levels = peer.admin("GET", "protocol").path("logLevels");
		assertThat(levels.size()).isEqualTo(2);
		levels.forEach((level) -> assertThat(level.asString()).isEqualTo("warning"));
	}

	@Test
	void aSubscriptionIsEstablishedAgainAfterTheSessionIsLostAndSaysUpdatesMayHaveBeenMissed() {
		List<McpResourceUpdate> updates = new CopyOnWriteArrayList<>();
		try (McpClient client = client(null).build()) {
			McpSubscription subscription = client.subscribe("demo://counter", updates::add);
			awaitTrue(() -> peer.counts().path("gets").asInt() >= 1, "the client opened no GET stream");
			awaitTrue(() -> {
				peer.admin("POST", "touch");
				return !updates.isEmpty();
			}, "no update arrived");
			assertThat(updates.get(0)).isEqualTo(new McpResourceUpdate("demo://counter", false));

			peer.forgetSessions();
			updates.clear();
			client.ping();
			awaitTrue(() -> updates.contains(new McpResourceUpdate("demo://counter", true)),
					"no update marked 'may have missed updates' after the recovery");
			JsonNode seen = peer.admin("GET", "protocol");
			assertThat(seen.path("subscribes").asInt()).isEqualTo(2);
			assertThat(seen.path("subscribedSessions").asInt()).isEqualTo(2);

			awaitTrue(() -> {
				peer.admin("POST", "touch");
				return updates.contains(new McpResourceUpdate("demo://counter", false));
			}, "no update arrived in the new session");
			subscription.close();
		}
		assertThat(peer.counts().path("requests").path("resources/unsubscribe").asInt()).isEqualTo(1);
	}

	@Test
	void argumentsOfPromptsAndResourceTemplatesAreCompleted() {
		try (McpClient client = client(null).build()) {
			Completion languages = client.complete(CompletionReference.prompt("greet"), "language", "E", Map.of());
			assertThat(languages.values()).containsExactly("English", "Esperanto");
			Completion cities = client.complete(CompletionReference.resourceTemplate("demo://city/{city}"), "city",
					"P", Map.of());
			assertThat(cities.values()).containsExactly("Paris", "Prague", "Porto");
		}
		assertThat(peer.counts().path("requests").path("completion/complete").asInt()).isEqualTo(2);
	}

	private static McpClientBuilder client(McpInputHandler handler) {
		McpClientBuilder builder = McpClient.builder("protocol", URI.create(peer.url()))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(15));
		return (handler != null) ? builder.inputHandler(handler) : builder;
	}

	private static void awaitTrue(BooleanSupplier condition, String failure) {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				fail(failure + " within " + WAIT.toSeconds() + " s");
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				fail("interrupted");
			}
		}
	}

}
