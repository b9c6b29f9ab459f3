package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpStreamNotResumableEvent;
import dev.mcpx.client.event.McpStreamResumedEvent;
import dev.mcpx.client.event.ReplayCause;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.reply;
import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A legacy event stream whose event ids cannot say where to resume it: every event has the
 * same id, the session id, as Spring AI 2.0.1's MCP server (STREAMABLE) writes them, or ids that
 * repeat (2025-11-25 basic/transports §Resumability and Redelivery, rule 1: an event id is unique
 * across the session's streams). Such a server also answers a GET with {@code Last-Event-ID} by
 * holding it open without headers, so a resumption would only wait for its patience. The
 * stream is handled at once as one without ids: re-sent when the replay gate allows it, else
 * {@link McpStreamLostException}. The scripted server counts the GETs that try to resume and
 * the tool calls it received.
 */
class UnresumableStreamWireTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String SESSION_ID = "spring-like-session-0123456789";

	private HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final CountDownLatch stopped = new CountDownLatch(1);

	private final AtomicInteger toolCalls = new AtomicInteger();

	private final List<String> resumedFrom = new CopyOnWriteArrayList<>();

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	private volatile String eventId = SESSION_ID;

	private volatile boolean springShape;

	private McpClient client;

	@BeforeEach
	void start() throws IOException {
		this.server = LoopbackUpstream.start(this::handle, this.executor);
		this.client = McpClient.builder("spring", LoopbackUpstream.url(this.server))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(30))
			.eventListener(this.events::add)
			.build();
	}

	@AfterEach
	void stop() {
		this.stopped.countDown();
		this.client.close();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	@Test
	void aReadOnlyCallWhoseEventIdsAreTheSessionIdIsSentAgainAtOnceWithoutTryingToResume() {
		assertThat(this.client.callTool("lookup", Map.of("key", "k")).text()).isEqualTo("found");

		assertThat(this.resumedFrom).as("GETs with Last-Event-ID").isEmpty();
		assertThat(this.toolCalls).hasValue(2);
		assertThat(this.events).filteredOn(McpStreamNotResumableEvent.class::isInstance)
			.singleElement()
			.isEqualTo(new McpStreamNotResumableEvent("spring", "tools/call", "its event ids are the session id"));
		assertThat(this.events).filteredOn(McpRequestReissuedEvent.class::isInstance)
			.extracting((e) -> ((McpRequestReissuedEvent) e).cause())
			.containsExactly(ReplayCause.STREAM_LOST);
		assertThat(this.events).noneMatch(McpStreamResumedEvent.class::isInstance);
	}

	@Test
	void aDestructiveCallWhoseEventIdsAreTheSessionIdFailsAtOnceAsMayHaveRun() {
		assertThatThrownBy(() -> this.client.callTool("transfer", Map.of("amount", 5)))
			.isInstanceOf(McpStreamLostException.class)
			.hasMessageContaining("may have executed")
			.hasMessageContaining("not re-issued");

		assertThat(this.resumedFrom).as("GETs with Last-Event-ID").isEmpty();
		assertThat(this.toolCalls).hasValue(1);
		assertThat(this.events).filteredOn(McpStreamNotResumableEvent.class::isInstance).hasSize(1);
		assertThat(this.events).filteredOn(McpReissueRefusedEvent.class::isInstance).hasSize(1);
	}

	@Test
	void aStreamWhoseEventIdsRepeatIsNotResumedEither() {
		this.eventId = "evt-1";

		assertThat(this.client.callTool("lookup", Map.of("key", "k")).text()).isEqualTo("found");

		assertThat(this.resumedFrom).as("GETs with Last-Event-ID").isEmpty();
		assertThat(this.toolCalls).hasValue(2);
		assertThat(this.events).filteredOn(McpStreamNotResumableEvent.class::isInstance)
			.singleElement()
			.isEqualTo(new McpStreamNotResumableEvent("spring", "tools/call", "its event ids repeat"));
	}

	/**
	 * As Spring AI's server writes a call that asks the client something first: the request's
	 * event has an id of its own, the response's event the session id; the cut falls after the
	 * response's {@code id:} line. The last complete event's id is unique, but the server names
	 * its responses by the session id, and replays nothing from either.
	 */
	@Test
	void aStreamCutAfterAnIdLineThatIsTheSessionIdIsNotResumedFromTheEventBefore() {
		this.springShape = true;

		assertThat(this.client.callTool("lookup", Map.of("key", "k")).text()).isEqualTo("found");

		assertThat(this.resumedFrom).as("GETs with Last-Event-ID").isEmpty();
		assertThat(this.toolCalls).hasValue(2);
		assertThat(this.events).filteredOn(McpStreamNotResumableEvent.class::isInstance)
			.singleElement()
			.isEqualTo(new McpStreamNotResumableEvent("spring", "tools/call", "its event ids are the session id"));
	}

	private void handle(HttpExchange exchange) throws IOException {
		if (exchange.getRequestMethod().equals("GET")) {
			String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
			if (lastEventId == null) {
				exchange.sendResponseHeaders(405, -1);
				exchange.close();
				return;
			}
			// As the server that gives every event the session id: the GET is held, no headers, no replay.
			this.resumedFrom.add(lastEventId);
			try {
				this.stopped.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			exchange.close();
			return;
		}
		if (exchange.getRequestMethod().equals("DELETE")) {
			exchange.sendResponseHeaders(200, -1);
			exchange.close();
			return;
		}
		JsonNode message = json.readTree(exchange.getRequestBody().readAllBytes());
		if (!message.has("id")) {
			exchange.sendResponseHeaders(202, -1);
			exchange.close();
			return;
		}
		switch (message.path("method").asString()) {
			case "initialize" -> {
				exchange.getResponseHeaders().add("Mcp-Session-Id", SESSION_ID);
				reply(exchange, 200, result(message, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
						+ "{\"tools\":{},\"logging\":{}},\"serverInfo\":{\"name\":\"spring-like\",\"version\":\"1\"}}"));
			}
			case "tools/list" -> reply(exchange, 200, result(message, "{\"tools\":[{\"name\":\"lookup\","
					+ "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}},{\"name\":"
					+ "\"transfer\",\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"destructiveHint\":true,"
					+ "\"idempotentHint\":false}}]}"));
			case "tools/call" -> {
				if (this.toolCalls.incrementAndGet() > 1) {
					reply(exchange, 200, result(message, "{\"content\":[{\"type\":\"text\",\"text\":\"found\"}]}"));
					return;
				}
				String log = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":"
						+ "{\"level\":\"info\",\"data\":\"working\"}}\n\n";
				if (this.springShape) {
					stream(exchange, "id: 659fdcd8-8545_709defd5-52e1\nevent: message\n" + log + "id: " + SESSION_ID
							+ "\n");
					return;
				}
				// Two complete events with the same id, then the stream is cut inside the response.
				stream(exchange, "id: " + this.eventId + "\n" + log + "id: " + this.eventId + "\n" + log + "id: "
						+ this.eventId + "\ndata: {\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + ",\"resu");
			}
			default -> reply(exchange, 200, result(message, "{}"));
		}
	}

	private static void stream(HttpExchange exchange, String text) throws IOException {
		exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(text.getBytes(StandardCharsets.UTF_8));
		}
	}

}
