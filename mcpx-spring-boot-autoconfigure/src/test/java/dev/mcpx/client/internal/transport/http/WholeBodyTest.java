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
 * A JSON response of a small declared length is received whole before the caller wakes
 * ({@link JdkHttp#body}): the wait for it is then the wait in {@code send}, and it must stay
 * bounded by the request timeout and ended by an interrupt exactly as a body read as a
 * stream is (2025-11-25 basic/lifecycle §Timeouts; basic/utilities/cancellation). The server
 * here declares a length, sends part of the body and stalls.
 */
class WholeBodyTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private HttpServer server;

	private final AtomicInteger calls = new AtomicInteger();

	private final CountDownLatch release = new CountDownLatch(1);

	private final CountDownLatch stalled = new CountDownLatch(1);

	private URI url;

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

	@Test
	void aSmallJsonBodyThatStallsIsBoundedByTheRequestTimeout() {
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

	@Test
	void anInterruptEndsTheWaitForASmallJsonBody() throws Exception {
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
		}
	}

	private McpClient client(Duration timeout) {
		return McpClient.builder("whole", this.url).protocol(ProtocolMode.LEGACY).requestTimeout(timeout).build();
	}

	private void handle(HttpExchange exchange) throws IOException {
		JsonNode message = json.readTree(exchange.getRequestBody().readAllBytes());
		String method = message.path("method").asString();
		if (!message.has("id")) {
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

	/** Declares the whole length, sends half, and waits until the test ends. */
	private void stall(HttpExchange exchange, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, bytes.length);
		OutputStream out = exchange.getResponseBody();
		out.write(bytes, 0, bytes.length / 2);
		out.flush();
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
