package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.reply;
import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.result;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A legacy event stream cut inside an event resumes from the last complete event
 * (2025-11-25 basic/transports §Resumability and Redelivery: the client resumes with "the last
 * event ID it received"; the SSE standard sets it when an event is dispatched, WHATWG HTML
 * §9.2.6). The upstream is a scripted HTTP server that keeps its events, as the TypeScript
 * SDK's event store does: a GET with {@code Last-Event-ID} replays every event after that id.
 * It counts what it received: the {@code Last-Event-ID} of each GET and the tool calls.
 */
class SseResumptionWireTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String SESSION_ID = "resume-session-0123456789abcdef";

	private static final String FIRST = "id: ev-1\nretry: 10\ndata: " + log("n1") + "\n\n";

	/** The event the stream is cut in: a notification the server keeps, with its id first. */
	private static final String SECOND = "id: ev-2\ndata: " + log("n2") + "\n\n";

	private HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger toolCalls = new AtomicInteger();

	private final List<String> resumedFrom = new CopyOnWriteArrayList<>();

	private final AtomicReference<String> callId = new AtomicReference<>();

	private volatile int cut;

	private McpClient client;

	private final List<String> notifications = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() throws IOException {
		this.server = LoopbackUpstream.start(this::handle, this.executor);
		this.client = McpClient.builder("resume", LoopbackUpstream.url(this.server))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(20))
			.notificationListener((upstream, method, params) -> {
				if (method.equals("notifications/message")) {
					this.notifications.add(params.path("data").asString());
				}
			})
			.build();
	}

	@AfterEach
	void stop() {
		this.client.close();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	private static String log(String data) {
		return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\""
				+ data + "\"}}";
	}

	/**
	 * Cuts the stream of a destructive call (which the replay gate would never send again)
	 * inside its second event, at a byte offset named by where it falls.
	 */
	@ParameterizedTest(name = "{0}")
	@CsvSource({ "before the id line, 0, ev-1", "inside the id field name, 2, ev-1", "inside the id value, 6, ev-1",
			"after the id value before its line end, 8, ev-1", "after the id line, 9, ev-1",
			"inside the data line, 40, ev-1", "after the data line before the blank line, -1, ev-1",
			"after the blank line, -0, ev-2" })
	void aStreamCutInsideAnEventIsResumedFromTheLastCompleteEventAndNothingIsLostOrRepeated(String where,
			String offset, String expectedLastEventId) {
		this.cut = offset.startsWith("-") ? SECOND.length() - Integer.parseInt(offset.substring(1)) : Integer.parseInt(offset);

		assertThat(this.client.callTool("transfer", Map.of("amount", 5)).text()).isEqualTo("done");

		assertThat(this.resumedFrom).as("Last-Event-ID of the GETs the server received").containsExactly(expectedLastEventId);
		assertThat(this.toolCalls).as("tools/call received").hasValue(1);
		// Every event reached the application exactly once: the complete ones from the stream,
		// the cut one from the replay.
		assertThat(this.notifications).containsExactly("n1", "n2");
	}

	private void handle(HttpExchange exchange) throws IOException {
		if (exchange.getRequestMethod().equals("GET")) {
			String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
			if (lastEventId == null) {
				exchange.sendResponseHeaders(405, -1);
				exchange.close();
				return;
			}
			this.resumedFrom.add(lastEventId);
			// The events after the one named, as an event store replays them.
			String replay = (lastEventId.equals("ev-1") ? SECOND : "") + "id: ev-3\ndata: {\"jsonrpc\":\"2.0\",\"id\":"
					+ this.callId.get() + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}}\n\n";
			stream(exchange, replay);
			return;
		}
		if (exchange.getRequestMethod().equals("DELETE")) {
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
			return;
		}
		JsonNode message = json.readTree(exchange.getRequestBody().readAllBytes());
		String method = message.path("method").asString();
		if (!message.has("id")) {
			exchange.sendResponseHeaders(202, -1);
			exchange.close();
			return;
		}
		switch (method) {
			case "initialize" -> {
				exchange.getResponseHeaders().add("Mcp-Session-Id", SESSION_ID);
				reply(exchange, 200, result(message, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
						+ "{\"tools\":{},\"logging\":{}},\"serverInfo\":{\"name\":\"resume\",\"version\":\"1\"}}"));
			}
			case "tools/list" -> reply(exchange, 200, result(message, "{\"tools\":[{\"name\":\"transfer\","
					+ "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"destructiveHint\":true,"
					+ "\"idempotentHint\":false}}]}"));
			case "tools/call" -> {
				this.toolCalls.incrementAndGet();
				this.callId.set(message.get("id").toString());
				stream(exchange, FIRST + SECOND.substring(0, this.cut));
			}
			default -> reply(exchange, 200, result(message, "{}"));
		}
	}

	/** An event stream that ends after the given text (a cut, when the text ends inside an event). */
	private static void stream(HttpExchange exchange, String text) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(text.getBytes(StandardCharsets.UTF_8));
		}
	}

}
