package dev.mcpx.client.fuzz;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.mcpx.chaos.LeakChecks;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.ID;
import static dev.mcpx.testsupport.McpWireMock.method;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Bad upstreams end to end, in both eras (docs/conformance.md, "Reliability and bad input"): malformed and mutated bodies,
 * wrong or missing content types, bodies beyond {@code maxMessageBytes}, responses with an
 * unknown or a duplicated id, floods of notifications, server requests and stray responses,
 * event streams that never end, and servers that dribble. Every case must end in a result or
 * a typed {@link McpException}, within the request timeout (times the one re-issue a lost
 * read-only call may get) plus a margin, and leave no {@code mcpx-*} thread behind.
 * WireMock serves what it can; {@link RawUpstream} serves the bodies that never end.
 */
class BadUpstreamFuzzTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private static final Duration TIMEOUT = Duration.ofMillis(1500);

	/** One attempt, the listing that learns annotations, one re-issue, and scheduling slack. */
	private static final Duration BOUND = TIMEOUT.multipliedBy(3).plusSeconds(2);

	private static final String GOOD_RESULT = "{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}";

	private static final String JSON_PREFIX = "{\"jsonrpc\":\"2.0\",\"id\":" + ID;

	private Set<String> threadsBefore;

	private final List<McpClient> clients = new ArrayList<>();

	@BeforeEach
	void baseline() {
		this.threadsBefore = LeakChecks.mcpxThreads();
	}

	@AfterEach
	void noThreadLeft() {
		this.clients.forEach(McpClient::close);
		assertThat(LeakChecks.leakedMcpxThreads(this.threadsBefore, LeakChecks.THREAD_GRACE))
			.as("mcpx-* threads left after every client was closed").isEmpty();
	}

	// --- mutated bodies -------------------------------------------------------------

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void mutatedResponseBodiesEndInAResultOrATypedException(ProtocolMode mode) {
		Random random = Seeds.random("mutated bodies " + mode);
		Map<String, Integer> outcomes = new TreeMap<>();
		for (int c = 0; c < Seeds.iterations(120); c++) {
			boolean sse = random.nextBoolean();
			String rest = mutate(random, ",\"result\":" + ((random.nextInt(3) == 0) ? randomResult(random) : GOOD_RESULT)
					+ "}");
			String json = (random.nextInt(10) == 0) ? sanitize(rest) : JSON_PREFIX + rest;
			ResponseDefinitionBuilder response = sse
					? aResponse().withHeader("Content-Type", "text/event-stream")
						.withBody("event: message\ndata: " + json + "\n\n")
					: aResponse().withHeader("Content-Type", "application/json").withBody(json);
			String outcome = outcome(mode, "case " + c + " (" + (sse ? "sse" : "json") + "): " + json, response, BOUND,
					(b) -> {
					});
			outcomes.merge(outcome, 1, Integer::sum);
		}
		System.out.println("[fuzz] mutated bodies " + mode + ": " + outcomes);
	}

	// --- content types --------------------------------------------------------------

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void wrongOrMissingContentTypesEndInAResultOrATypedException(ProtocolMode mode) {
		String json = JSON_PREFIX + ",\"result\":" + GOOD_RESULT + "}";
		String sse = "data: " + json + "\n\n";
		Map<String, String> outcomes = new TreeMap<>();
		String[] types = { null, "", "text/plain", "text/html; charset=utf-8", "application/json; charset=utf-8",
				"APPLICATION/JSON", "application/json-seq", "application/problem+json", "text/event-stream",
				"text/event-stream; charset=utf-8", "multipart/mixed; boundary=x", ";;;", "application/octet-stream" };
		for (String type : types) {
			for (String body : List.of(json, sse)) {
				ResponseDefinitionBuilder response = aResponse().withBody(body);
				if (type != null) {
					response.withHeader("Content-Type", type);
				}
				String outcome = outcome(mode, type + " / " + ((body == json) ? "json" : "sse"), response, BOUND,
						(b) -> {
						});
				outcomes.put(type + " / " + ((body == json) ? "json" : "sse"), outcome);
			}
		}
		System.out.println("[fuzz] content types " + mode + ": " + outcomes);
		assertThat(outcomes.get("application/json; charset=utf-8 / json")).isEqualTo("result");
		assertThat(outcomes.get("text/event-stream / sse")).isEqualTo("result");
		assertThat(outcomes.get("text/html; charset=utf-8 / json")).isEqualTo(McpProtocolException.class.getSimpleName());
	}

	// --- size -----------------------------------------------------------------------

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void aBodyLargerThanMaxMessageBytesIsRefusedPromptly(ProtocolMode mode) {
		int max = 4096;
		String padding = "x".repeat(64 * 1024);
		String json = JSON_PREFIX + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + padding + "\"}]}}";
		Consumer<McpClientBuilder> small = (b) -> b.maxMessageBytes(max);
		for (ResponseDefinitionBuilder response : List.of(okJson(json),
				aResponse().withHeader("Content-Type", "text/event-stream").withBody("data: " + json + "\n\n"),
				aResponse().withHeader("Content-Type", "text/event-stream")
					.withBody("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"d\":\""
							+ padding + "\"}}\n\n" + "data: " + JSON_PREFIX + ",\"result\":" + GOOD_RESULT + "}\n\n"))) {
			// Refused on size, not by the deadline: the client stopped reading at the bound.
			assertThat(outcome(mode, "oversized", response, BOUND, small))
				.isEqualTo(McpProtocolException.class.getSimpleName());
		}
		String fits = JSON_PREFIX + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + "y".repeat(max / 2)
				+ "\"}]}}";
		assertThat(outcome(mode, "fits", okJson(fits), BOUND, small)).isEqualTo("result");
	}

	/**
	 * Bodies that never end (an endless JSON value, an endless event, endless notifications):
	 * the call ends typed within the timeout, and the endless body is abandoned (its
	 * connection closed), never drained.
	 */
	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void endlessBodiesEndTypedWithinTheTimeoutAndAreAbandoned(ProtocolMode mode) throws Exception {
		for (String[] body : ENDLESS) {
			Object outcome = endless(mode, body[0], body[1], body[2]);
			assertThat(outcome).as("%s %s", mode, body[3]).isInstanceOf(McpException.class);
		}
	}

	/** What the client's bound on a message promises: it stops reading there, with the error saying so. */
	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void anEndlessBodyIsRefusedAtTheBoundNotAtTheDeadline(ProtocolMode mode) throws Exception {
		for (String[] body : ENDLESS) {
			if (body[3].equals("notifications")) {
				continue;
			}
			long started = System.nanoTime();
			Object outcome = endless(mode, body[0], body[1], body[2]);
			long millis = (System.nanoTime() - started) / 1_000_000;
			assertThat(outcome).as("%s %s after %d ms", mode, body[3], millis).isInstanceOf(McpProtocolException.class);
			assertThat(millis).as("refused on size, well before the timeout").isLessThan(TIMEOUT.toMillis() / 2);
		}
	}

	/** content type, head, pattern repeated forever, name. */
	private static final String[][] ENDLESS = {
			{ "application/json", "[", "  ", "json" },
			{ "text/event-stream", "data: ", "xxxxxxxx", "event" },
			{ "text/event-stream", "", "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n",
					"notifications" } };

	/** Serves {@code head} then {@code pattern} forever (as fast as the client reads); returns the outcome. */
	private Object endless(ProtocolMode mode, String contentType, String head, String pattern) throws Exception {
		byte[] chunk = pattern.repeat(Math.max(1, 8192 / pattern.length())).getBytes(StandardCharsets.UTF_8);
		try (RawUpstream upstream = new RawUpstream((id, out) -> {
			RawUpstream.writeOpenEndedHead(out, contentType);
			out.write(head.getBytes(StandardCharsets.UTF_8));
			while (true) {
				out.write(chunk);
			}
		})) {
			McpClient client = client(mode, upstream.url(), (b) -> b.maxMessageBytes(64 * 1024));
			Object outcome = call(client, BOUND);
			client.close();
			long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
			while (upstream.streaming() > 0 && System.nanoTime() < deadline) {
				Thread.sleep(50);
			}
			// An endless body is abandoned by closing its connection, never drained for ever.
			assertThat(upstream.streaming()).as("responses still being written after close()").isZero();
			return outcome;
		}
	}

	// --- ids ------------------------------------------------------------------------

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void responsesWithUnknownOrDuplicatedIds(ProtocolMode mode) {
		String good = JSON_PREFIX + ",\"result\":" + GOOD_RESULT + "}";
		String unknown = "{\"jsonrpc\":\"2.0\",\"id\":987654321,\"result\":{\"content\":[]}}";
		String stringId = "{\"jsonrpc\":\"2.0\",\"id\":\"" + ID + "\",\"result\":" + GOOD_RESULT + "}";
		String nullId = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"bad\"}}";
		Map<String, ResponseDefinitionBuilder> cases = new TreeMap<>();
		cases.put("json unknown id", okJson(unknown));
		cases.put("json null id error", okJson(nullId));
		cases.put("json batch of duplicates", okJson("[" + good + "," + good + "]"));
		cases.put("sse unknown then good", sse("data: " + unknown + "\n\ndata: " + good + "\n\n"));
		cases.put("sse good twice", sse("data: " + good + "\n\ndata: " + good + "\n\n"));
		cases.put("sse only unknown", sse("data: " + unknown + "\n\n"));
		cases.put("sse 5000 unknown then good", sse(("data: " + unknown + "\n\n").repeat(5000) + "data: " + good + "\n\n"));
		cases.put("sse string id", sse("data: " + stringId + "\n\n"));
		Map<String, String> outcomes = new TreeMap<>();
		cases.forEach((name, response) -> outcomes.put(name, outcome(mode, name, response, BOUND, (b) -> {
		})));
		System.out.println("[fuzz] ids " + mode + ": " + outcomes);
		assertThat(outcomes.get("json unknown id")).isEqualTo(McpProtocolException.class.getSimpleName());
		assertThat(outcomes.get("sse unknown then good")).isEqualTo("result");
		assertThat(outcomes.get("sse good twice")).isEqualTo("result");
		assertThat(outcomes.get("sse 5000 unknown then good")).isEqualTo("result");
	}

	// --- floods ---------------------------------------------------------------------

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void floodsOfNotificationsAndServerRequestsBeforeTheResponse(ProtocolMode mode) {
		String good = "data: " + JSON_PREFIX + ",\"result\":" + GOOD_RESULT + "}\n\n";
		String notification = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
				+ "\"params\":{\"progressToken\":1,\"progress\":1}}\n\n";
		StringBuilder requests = new StringBuilder();
		for (int i = 0; i < 1000; i++) {
			String method = (i % 2 == 0) ? "ping" : "sampling/createMessage";
			requests.append("data: {\"jsonrpc\":\"2.0\",\"id\":\"s").append(i).append("\",\"method\":\"")
				.append(method).append("\"}\n\n");
		}
		Map<String, String> outcomes = new TreeMap<>();
		// The floods are about what arrives, not how fast: a loaded machine gets the same generous bound.
		outcomes.put("10000 notifications", outcome(mode, "notifications", sse(notification.repeat(10_000) + good),
				Duration.ofSeconds(40), BadUpstreamFuzzTest::generous));
		long started = System.nanoTime();
		outcomes.put("1000 server requests", outcome(mode, "server requests", sse(requests + good),
				Duration.ofSeconds(40), BadUpstreamFuzzTest::generous));
		long requestsMillis = (System.nanoTime() - started) / 1_000_000;
		System.out.println("[fuzz] floods " + mode + ": " + outcomes + "; 1000 server requests took " + requestsMillis
				+ " ms");
		assertThat(outcomes.get("10000 notifications")).isEqualTo("result");
		assertThat(outcomes.get("1000 server requests")).isEqualTo("result");
	}

	// --- time -----------------------------------------------------------------------

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void anEventStreamThatNeverEndsAndNeverAnswersEndsAtTheTimeout(ProtocolMode mode) {
		ResponseDefinitionBuilder dribble = aResponse().withHeader("Content-Type", "text/event-stream")
			.withBody(": tick\n".repeat(300))
			.withChunkedDribbleDelay(300, 60_000);
		long started = System.nanoTime();
		assertThat(outcome(mode, "never ends", dribble, TIMEOUT.plusSeconds(2), (b) -> {
		})).isEqualTo(McpTimeoutException.class.getSimpleName());
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT.plusSeconds(2));
	}

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void aResponseFollowedByAStreamThatNeverEndsIsReturnedAtOnce(ProtocolMode mode) throws Exception {
		try (RawUpstream upstream = new RawUpstream((id, out) -> {
			RawUpstream.writeOpenEndedHead(out, "text/event-stream");
			out.write(("data: " + RawUpstream.result(id, GOOD_RESULT) + "\n\n").getBytes(StandardCharsets.UTF_8));
			out.flush();
			while (true) {
				sleep(50);
				out.write(": tick\n".getBytes(StandardCharsets.UTF_8));
				out.flush();
			}
		})) {
			McpClient client = client(mode, upstream.url(), (b) -> b.requestTimeout(Duration.ofSeconds(30)));
			long started = System.nanoTime();
			assertThat(call(client, BOUND)).isInstanceOf(CallToolResult.class);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the response is not held by the open stream")
				.isLessThan(Duration.ofSeconds(3));
		}
	}

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void aServerDribblingBytesIsBoundedByTheTimeout(ProtocolMode mode) {
		String json = JSON_PREFIX + ",\"result\":" + GOOD_RESULT + "}";
		ResponseDefinitionBuilder tooSlow = aResponse().withHeader("Content-Type", "application/json")
			.withBody(json)
			.withChunkedDribbleDelay(40, (int) TIMEOUT.multipliedBy(4).toMillis());
		assertThat(outcome(mode, "too slow", tooSlow, TIMEOUT.plusSeconds(2), (b) -> {
		})).isEqualTo(McpTimeoutException.class.getSimpleName());
		ResponseDefinitionBuilder slowEnough = aResponse().withHeader("Content-Type", "application/json")
			.withBody(json)
			.withChunkedDribbleDelay(20, (int) TIMEOUT.dividedBy(4).toMillis());
		assertThat(outcome(mode, "slow enough", slowEnough, BOUND, (b) -> {
		})).isEqualTo("result");
		ResponseDefinitionBuilder sseTooSlow = sse("data: " + json + "\n\n")
			.withChunkedDribbleDelay(40, (int) TIMEOUT.multipliedBy(4).toMillis());
		assertThat(outcome(mode, "sse too slow", sseTooSlow, TIMEOUT.plusSeconds(2), (b) -> {
		})).isEqualTo(McpTimeoutException.class.getSimpleName());
	}

	// --- the listen stream ----------------------------------------------------------

	/**
	 * The long-lived notification stream meets the same bad input; whatever it gets, the
	 * client keeps listening (it opens the stream again), and its thread survives.
	 */
	@Test
	void aListenStreamSurvivesAnEventItCannotDecode() throws Exception {
		Map<String, String> cases = Map.of("an event beyond maxMessageBytes",
				"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"d\":\""
						+ "x".repeat(8192) + "\"}}\n\n",
				"an error code beyond int",
				"data: {\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":2147483648,\"message\":\"m\"}}\n\n");
		for (Map.Entry<String, String> entry : cases.entrySet()) {
			String bad = entry.getValue();
			wire.resetAll();
			stubLegacyHandshake("{\"tools\":{\"listChanged\":true}}");
			wire.stubFor(get(urlEqualTo("/mcp")).willReturn(sse(bad)));
			wire.stubFor(method("ping").willReturn(okJson(JSON_PREFIX + ",\"result\":{}}")));
			McpClient client = client(ProtocolMode.LEGACY, wire.mcpUrl(), (b) -> b.maxMessageBytes(4096));
			client.ping();
			Thread.sleep(3000);
			assertThat(LeakChecks.threads("mcpx-" + client.name() + "-listen"))
				.as("the listen thread after %s", entry.getKey()).isNotEmpty();
			assertThat(wire.findAll(getRequestedFor(urlEqualTo("/mcp"))).size())
				.as("GET streams opened after %s (reopened after it failed)", entry.getKey()).isGreaterThanOrEqualTo(2);
			client.close();
		}
	}

	// --- harness --------------------------------------------------------------------

	/**
	 * Calls {@code echo} on a fresh client of the given era against WireMock, answering the
	 * call with the response under test; returns "result" or the simple name of the typed
	 * exception, and fails on anything else or past the bound.
	 */
	private String outcome(ProtocolMode mode, String what, ResponseDefinitionBuilder response, Duration bound,
			Consumer<McpClientBuilder> customizer) {
		wire.resetAll();
		if (mode == ProtocolMode.LEGACY) {
			stubLegacyHandshake("{\"tools\":{}}");
		}
		else {
			wire.stubFor(method("server/discover").willReturn(okJson(JSON_PREFIX + ",\"result\":{\"resultType\":"
					+ "\"complete\",\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}}}}")));
		}
		wire.stubFor(method("tools/list").willReturn(okJson(JSON_PREFIX + ",\"result\":{\"tools\":[{\"name\":\"echo\","
				+ "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}]}}")));
		wire.stubFor(post(urlEqualTo("/mcp")).withRequestBody(notContaining("\"method\""))
			.willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("tools/call").willReturn(response));
		try (McpClient client = client(mode, wire.mcpUrl(), customizer)) {
			Object outcome;
			try {
				outcome = call(client, bound);
			}
			catch (AssertionError ex) {
				throw new AssertionError(mode + " " + what + ": " + ex.getMessage(), ex);
			}
			if (outcome instanceof Throwable failure) {
				if (!(failure instanceof McpException)) {
					fail(mode + " " + what + ": untyped " + LeakChecks.chain(failure), failure);
				}
				return failure.getClass().getSimpleName();
			}
			return "result";
		}
	}

	/** The result, or the exception; the call must end within the bound. */
	private static Object call(McpClient client, Duration bound) {
		return assertTimeoutPreemptively(bound, () -> {
			try {
				return client.callTool("echo", Map.of("text", "hi"));
			}
			catch (Throwable ex) {
				return ex;
			}
		}, () -> "the call did not end within " + bound.toMillis() + " ms");
	}

	private static void generous(McpClientBuilder builder) {
		builder.requestTimeout(Duration.ofSeconds(30)).handshakeTimeout(Duration.ofSeconds(30));
	}

	private McpClient client(ProtocolMode mode, String url, Consumer<McpClientBuilder> customizer) {
		McpClientBuilder builder = McpClient.builder("fuzz-" + mode.name().toLowerCase(java.util.Locale.ROOT),
				URI.create(url))
			.protocol(mode)
			.requestTimeout(TIMEOUT)
			.handshakeTimeout(TIMEOUT);
		customizer.accept(builder);
		McpClient client = builder.build();
		this.clients.add(client);
		return client;
	}

	private static void stubLegacyHandshake(String capabilities) {
		wire.stubFor(method("initialize").willReturn(okJson(JSON_PREFIX + ",\"result\":{\"protocolVersion\":"
				+ "\"2025-11-25\",\"capabilities\":" + capabilities + ",\"serverInfo\":{\"name\":\"bad\",\"version\":\"1\"}}}")
			.withHeader("Mcp-Session-Id", "fuzz-session-0123456789")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("notifications/cancelled").willReturn(aResponse().withStatus(202)));
		wire.stubFor(delete(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(200)));
		wire.stubFor(get(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(405)));
	}

	private static ResponseDefinitionBuilder sse(String body) {
		return aResponse().withHeader("Content-Type", "text/event-stream").withBody(body);
	}

	// --- generators -----------------------------------------------------------------

	private static final String[] GARBAGE = { "\"", "{", "}", "[", "]", ":", ",", "\\", "\\u", "\\ud800", "null", "true",
			"1e99999", "-", "0x1F", "\n", "\r\n", "data: ", "\u0000", "é", "😀", " ", "\t", "NaN", "//", "/*", "'",
			"\"jsonrpc\"", "\"id\"", "\"result\"", "\"error\"", "\"method\":\"ping\"", "\"content\"", "[".repeat(2000) };

	/** A random mutation of the text after the id: cut, replaced, inserted, duplicated or garbage. */
	private static String mutate(Random random, String rest) {
		String mutated = switch (random.nextInt(7)) {
			case 0 -> rest.substring(0, random.nextInt(rest.length() + 1));
			case 1 -> {
				StringBuilder text = new StringBuilder(rest);
				for (int i = 1 + random.nextInt(4); i > 0 && !text.isEmpty(); i--) {
					int at = random.nextInt(text.length());
					text.replace(at, at + 1, GARBAGE[random.nextInt(GARBAGE.length)]);
				}
				yield text.toString();
			}
			case 2 -> {
				int at = random.nextInt(rest.length() + 1);
				yield rest.substring(0, at) + GARBAGE[random.nextInt(GARBAGE.length)] + rest.substring(at);
			}
			case 3 -> rest + rest.substring(random.nextInt(rest.length()));
			case 4 -> {
				StringBuilder text = new StringBuilder();
				for (int i = random.nextInt(12); i > 0; i--) {
					text.append(GARBAGE[random.nextInt(GARBAGE.length)]);
				}
				yield text.toString();
			}
			case 5 -> rest + GARBAGE[random.nextInt(GARBAGE.length)];
			default -> rest;
		};
		return sanitize(mutated);
	}

	/** No Handlebars tag may be born from the garbage: the id placeholder is the only one. */
	private static String sanitize(String text) {
		String clean = text;
		while (clean.contains("{{")) {
			clean = clean.replace("{{", "{ {");
		}
		return clean;
	}

	/** A random JSON value where the tool result goes: the model mapping must cope with any shape. */
	private static String randomResult(Random random) {
		return switch (random.nextInt(8)) {
			case 0 -> "null";
			case 1 -> "\"text\"";
			case 2 -> "[1,2,3]";
			case 3 -> "{\"content\":{\"type\":\"text\"}}";
			case 4 -> "{\"content\":[1,\"two\",null,[],{\"type\":{\"nested\":true},\"text\":[1]}]}";
			case 5 -> "{\"content\":[{\"type\":\"resource\",\"resource\":5},{\"type\":\"image\",\"data\":{}}],"
					+ "\"isError\":\"yes\",\"structuredContent\":7}";
			case 6 -> "{\"resultType\":\"input_required\",\"inputRequests\":{\"a\":{\"method\":\"x\"}}}";
			default -> "{\"resultType\":" + (random.nextBoolean() ? "\"weird\"" : "5") + ",\"content\":[]}";
		};
	}

	private static void sleep(long millis) throws IOException {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new java.io.InterruptedIOException();
		}
	}

}
