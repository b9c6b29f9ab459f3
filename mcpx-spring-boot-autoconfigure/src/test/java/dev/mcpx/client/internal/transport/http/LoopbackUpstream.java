package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;

/**
 * What the transport tests' scripted upstreams share: a JDK {@link HttpServer} on a free
 * loopback port serving {@code /mcp}, and JSON-RPC replies written with their length.
 */
final class LoopbackUpstream {

	static {
		// The JDK server leaves Nagle's algorithm on otherwise: 40 ms per small response.
		System.setProperty("sun.net.httpserver.nodelay", "true");
	}

	private LoopbackUpstream() {
	}

	/**
	 * Starts a server whose {@code /mcp} is the given handler.
	 * @param handler answers every exchange
	 * @param executor runs the handler
	 * @return the started server
	 * @throws IOException if it cannot bind
	 */
	static HttpServer start(HttpHandler handler, Executor executor) throws IOException {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/mcp", handler);
		server.setExecutor(executor);
		server.start();
		return server;
	}

	/**
	 * The server's MCP endpoint.
	 * @param server a started server
	 * @return its URL
	 */
	static URI url(HttpServer server) {
		return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
	}

	/**
	 * A JSON-RPC result answering a request.
	 * @param request the request
	 * @param result the result's JSON
	 * @return the response's JSON
	 */
	static String result(JsonNode request, String result) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + ",\"result\":" + result + "}";
	}

	/**
	 * Writes a JSON body with its length and ends the exchange.
	 * @param exchange the exchange
	 * @param status the HTTP status
	 * @param body the JSON
	 * @throws IOException if writing fails
	 */
	static void reply(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
