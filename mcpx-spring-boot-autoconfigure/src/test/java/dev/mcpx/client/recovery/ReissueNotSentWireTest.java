package dev.mcpx.client.recovery;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.ReplayCause;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A tool configured {@code always} whose response was lost is sent again; when that second send
 * cannot reach the upstream (it went down meanwhile), the first send may still have run, so the
 * caller is told so by type and message, never "was not sent" alone (2026-07-28 changelog:
 * a broken stream is a lost response; docs/architecture.md, "The replay gate"). The upstream,
 * a scripted HTTP server, counts the calls it received and stops listening while it answers the
 * first.
 */
class ReissueNotSentWireTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String SESSION_ID = "session-0123456789abcdef";

	private HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger toolCalls = new AtomicInteger();

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	@BeforeEach
	void start() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/mcp", this::handle);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	@Test
	void aReissueThatCannotReachTheUpstreamSaysTheFirstSendMayHaveRun() {
		URI url = URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/mcp");
		try (McpClient client = McpClient.builder("down", url)
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(10))
			.recoveryPolicy(RecoveryPolicy.custom().tool("charge_card", ToolReplay.ALWAYS).build())
			.eventListener(this.events::add)
			.build()) {

			assertThatThrownBy(() -> client.callTool("charge_card", Map.of("amount", 5)))
				.isInstanceOfSatisfying(McpStreamLostException.class, (ex) -> {
					assertThat(ex.method()).isEqualTo("tools/call");
					assertThat(ex.getMessage()).contains("tools/call 'charge_card'")
						.contains("may have run")
						.contains("sending it again failed before it reached the server")
						.contains("connection refused");
					assertThat(ex.getCause()).isInstanceOf(McpTransportException.class);
					// The lost response that led to the second send is kept.
					assertThat(ex.getSuppressed()).hasAtLeastOneElementOfType(McpStreamLostException.class);
				});
		}
		assertThat(this.toolCalls).as("tools/call the server received").hasValue(1);
		assertThat(this.events).filteredOn(McpRequestReissuedEvent.class::isInstance)
			.extracting((e) -> ((McpRequestReissuedEvent) e).cause())
			.containsExactly(ReplayCause.STREAM_LOST);
	}

	private void handle(HttpExchange exchange) throws IOException {
		if (!exchange.getRequestMethod().equals("POST")) {
			exchange.sendResponseHeaders(405, -1);
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
				reply(exchange, result(message, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
						+ "\"serverInfo\":{\"name\":\"going-down\",\"version\":\"1\"}}"));
			}
			case "tools/list" -> reply(exchange, result(message, "{\"tools\":[{\"name\":\"charge_card\",\"inputSchema\":"
					+ "{\"type\":\"object\"},\"annotations\":{\"destructiveHint\":true,\"idempotentHint\":false}}]}"));
			case "tools/call" -> {
				this.toolCalls.incrementAndGet();
				// The call ran; its answer is cut as the server goes down: it listens no more.
				byte[] whole = result(message, "{\"content\":[{\"type\":\"text\",\"text\":\"charged\"}]}")
					.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().add("Content-Type", "application/json");
				exchange.sendResponseHeaders(200, whole.length);
				OutputStream out = exchange.getResponseBody();
				out.write(whole, 0, whole.length / 2);
				out.flush();
				this.server.stop(0);
			}
			default -> reply(exchange, result(message, "{}"));
		}
	}

	private static String result(JsonNode request, String result) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":" + result + "}";
	}

	private static void reply(HttpExchange exchange, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
