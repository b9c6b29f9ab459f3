package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.reply;
import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two waits for a POST's response happen inside the JDK client's {@code send}, not in a body
 * read: a JSON response of a small declared length is received whole before the caller wakes,
 * and an event stream is handed over with its first bytes, not its headers
 * ({@link JdkHttp#postBody}). Both must stay bounded by the request timeout and ended by an
 * interrupt exactly as a body read as a stream is (2025-11-25 basic/lifecycle §Timeouts;
 * basic/utilities/cancellation). The server here either declares a JSON body's length, sends
 * half of it and stalls, or sends an event stream's headers and stalls before any event.
 */
class ResponseWaitTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private HttpServer server;

	private final AtomicInteger calls = new AtomicInteger();

	private final CountDownLatch release = new CountDownLatch(1);

	private final CountDownLatch stalled = new CountDownLatch(1);

	private final CountDownLatch cancelled = new CountDownLatch(1);

	private URI url;

	/** How the stalled response looks on the wire. */
	enum Stall {

		/** Half of a JSON body of declared length. */
		HALF_A_JSON_BODY,

		/** An event stream's headers, and no event. */
		EVENT_STREAM_HEADERS

	}

	private volatile Stall stall;

	private volatile boolean endlessAcknowledgement;

	@BeforeEach
	void start() throws IOException {
		this.server = LoopbackUpstream.start(this::handle, Executors.newCachedThreadPool());
		this.url = LoopbackUpstream.url(this.server);
	}

	@AfterEach
	void stop() {
		this.release.countDown();
		this.server.stop(0);
	}

	@ParameterizedTest
	@EnumSource(Stall.class)
	void aStalledResponseIsBoundedByTheRequestTimeout(Stall stall) {
		this.stall = stall;
		try (McpClient client = client(Duration.ofMillis(800))) {
			client.listTools();
			long t0 = System.nanoTime();
			assertThatThrownBy(() -> client.callTool("stall", Map.of())).isInstanceOf(McpTimeoutException.class);
			assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
			// the tool is not destructive-safe by annotation: sent once, not re-issued
			assertThat(this.calls.get()).isEqualTo(1);
			// the client still works on a new connection
			assertThat(client.callTool("echo", Map.of()).isError()).isFalse();
		}
	}

	@ParameterizedTest
	@EnumSource(Stall.class)
	void anInterruptEndsTheWaitForAStalledResponse(Stall stall) throws Exception {
		this.stall = stall;
		try (McpClient client = client(Duration.ofSeconds(30))) {
			client.listTools();
			AtomicReference<Throwable> outcome = new AtomicReference<>();
			Thread caller = new Thread(() -> {
				try {
					client.callTool("stall", Map.of());
				}
				catch (RuntimeException ex) {
					outcome.set(ex);
				}
			});
			caller.start();
			assertThat(this.stalled.await(10, TimeUnit.SECONDS)).isTrue();
			caller.interrupt();
			caller.join(5000);
			assertThat(caller.isAlive()).isFalse();
			assertThat(outcome.get()).isInstanceOf(McpCancelledException.class);
			assertThat(this.calls.get()).isEqualTo(1);
			// the server is told (2025-11-25 basic/utilities/cancellation)
			assertThat(this.cancelled.await(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	/**
	 * Only an event stream is waited on for its first bytes: a 202 whose body has no declared
	 * length and never ends (the acknowledgement of {@code notifications/initialized} here) is
	 * done with at its headers, as before, not waited on until the timeout.
	 */
	@Test
	void anAcknowledgementThatNeverEndsIsNotWaitedOn() {
		this.endlessAcknowledgement = true;
		try (McpClient client = client(Duration.ofSeconds(30))) {
			long t0 = System.nanoTime();
			assertThat(client.listTools()).hasSize(2);
			assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
		}
	}

	private McpClient client(Duration timeout) {
		return McpClient.builder("whole", this.url).protocol(ProtocolMode.LEGACY).requestTimeout(timeout).build();
	}

	private void handle(HttpExchange exchange) throws IOException {
		JsonNode message = json.readTree(exchange.getRequestBody().readAllBytes());
		String method = message.path("method").asString();
		if (!message.has("id")) {
			if (method.equals("notifications/cancelled")) {
				this.cancelled.countDown();
			}
			if (this.endlessAcknowledgement) {
				exchange.sendResponseHeaders(202, 0); // chunked, and never ended
				exchange.getResponseBody().flush();
				return;
			}
			exchange.sendResponseHeaders(202, -1);
			exchange.close();
			return;
		}
		switch (method) {
			case "initialize" -> {
				exchange.getResponseHeaders().add("Mcp-Session-Id", UUID.randomUUID().toString());
				reply(exchange, 200, result(message, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
						+ "\"serverInfo\":{\"name\":\"whole\",\"version\":\"1\"}}"));
			}
			case "tools/list" -> reply(exchange, 200, result(message,
					"{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}},"
							+ "{\"name\":\"stall\",\"inputSchema\":{\"type\":\"object\"}}]}"));
			case "tools/call" -> {
				if (message.at("/params/name").asString().equals("stall")) {
					this.calls.incrementAndGet();
					stall(exchange, result(message, "{\"content\":[{\"type\":\"text\",\"text\":\"late\"}]}"));
				}
				else {
					reply(exchange, 200, result(message, "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"));
				}
			}
			default -> reply(exchange, 200, "{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id")
					+ ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
		}
	}

	/**
	 * Declares the whole length and sends half, or sends an event stream's headers only; then
	 * waits until the test ends.
	 */
	private void stall(HttpExchange exchange, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		if (this.stall == Stall.HALF_A_JSON_BODY) {
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, bytes.length);
			OutputStream out = exchange.getResponseBody();
			out.write(bytes, 0, bytes.length / 2);
			out.flush();
		}
		else {
			exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0); // chunked: the headers go out now
			exchange.getResponseBody().flush();
		}
		this.stalled.countDown();
		try {
			this.release.await(60, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		exchange.close();
	}

}
