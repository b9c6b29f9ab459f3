package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpHttpStatusException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.reply;
import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The HTTP client keeps a connection only when its response was read to the end: a
 * response closed early costs the next request a new connection (found by the benchmark:
 * one call in five reconnected). Counted here as the server sees it, by the client ports
 * of its requests, across every kind of response a legacy session gets: JSON results with
 * a length, {@code 202} to notifications, {@code 404} errors that start a recovery, and
 * errors the client only reports.
 */
class ConnectionReuseTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private HttpServer server;

	private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

	private final Set<String> liveSessions = ConcurrentHashMap.newKeySet();

	private final AtomicInteger requests = new AtomicInteger();

	private McpClient client;

	@BeforeEach
	void start() throws IOException {
		this.server = LoopbackUpstream.start(this::handle, Executors.newSingleThreadExecutor());
		this.client = McpClient.builder("reuse", LoopbackUpstream.url(this.server)).protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(5))
			.build();
	}

	@AfterEach
	void stop() {
		this.client.close();
		this.server.stop(0);
	}

	@Test
	void oneConnectionCarriesCallsNotificationsRecoveriesAndErrors() {
		for (int i = 0; i < 50; i++) {
			assertThat(this.client.callTool("echo", Map.of("i", i)).isError()).isFalse();
		}
		for (int i = 0; i < 20; i++) {
			this.liveSessions.clear(); // a restart: the next call meets a 404 and recovers
			assertThat(this.client.callTool("echo", Map.of("i", i)).isError()).isFalse();
			assertThatThrownBy(() -> this.client.callTool("broken", Map.of()))
				.isInstanceOf(McpHttpStatusException.class);
		}
		// the first handshake (2), a listing, 50 calls, then 20 × (the call answered 404, the
		// handshake (2), the call again, a listing for the unlisted tool in the new session,
		// the failing call)
		assertThat(this.requests.get()).isEqualTo(2 + 1 + 50 + 20 * 6);
		assertThat(this.clientPorts).hasSize(1);
	}

	private void handle(HttpExchange exchange) throws IOException {
		this.requests.incrementAndGet();
		this.clientPorts.add(exchange.getRemoteAddress().getPort());
		JsonNode message = json.readTree(exchange.getRequestBody().readAllBytes());
		String method = message.path("method").asString();
		if (method.equals("initialize")) {
			String session = UUID.randomUUID().toString();
			this.liveSessions.add(session);
			exchange.getResponseHeaders().add("Mcp-Session-Id", session);
			reply(exchange, 200, result(message, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
					+ "\"serverInfo\":{\"name\":\"reuse\",\"version\":\"1\"}}"));
			return;
		}
		String session = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
		if (session == null || !this.liveSessions.contains(session)) {
			reply(exchange, 404, error(message, -32001, "Session not found"));
			return;
		}
		if (!message.has("id")) {
			exchange.sendResponseHeaders(202, -1);
			exchange.close();
			return;
		}
		switch (method) {
			case "tools/list" -> reply(exchange, 200, result(message, "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":"
					+ "{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}]}"));
			case "tools/call" -> {
				if (message.at("/params/name").asString().equals("broken")) {
					reply(exchange, 500, error(message, -32603, "Internal error"));
				}
				else {
					reply(exchange, 200, result(message, "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"));
				}
			}
			default -> reply(exchange, 200, error(message, -32601, "Method not found"));
		}
	}

	private static String error(JsonNode request, int code, String message) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + request.path("id") + ",\"error\":{\"code\":" + code
				+ ",\"message\":\"" + message + "\"}}";
	}

}
