package dev.mcpx.client.fuzz;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A minimal HTTP/1.1 MCP upstream on a raw socket, for what WireMock cannot serve: bodies
 * that never end, written at the pace the test chooses. It answers the handshake of either
 * era ({@code initialize} with a session id, {@code server/discover}), {@code tools/list}
 * (one read-only tool {@code echo}), notifications (202), DELETE (200) and GET (405), and
 * hands {@code tools/call} to the test's {@link Handler}, which writes the raw response.
 */
final class RawUpstream implements AutoCloseable {

	static final String SESSION_ID = "raw-session-0123456789abcdef";

	private static final JsonMapper JSON = JsonMapper.shared();

	private final ServerSocket server;

	private final Handler handler;

	private final Set<Socket> open = ConcurrentHashMap.newKeySet();

	private final AtomicInteger toolCalls = new AtomicInteger();

	private final AtomicInteger streaming = new AtomicInteger();

	private volatile boolean closed;

	/** Writes the raw HTTP response to one {@code tools/call}. */
	@FunctionalInterface
	interface Handler {

		/**
		 * Answers a {@code tools/call}.
		 * @param id the JSON-RPC id of the request, as JSON text
		 * @param out the connection: write status line, headers and body
		 * @return whether the connection may serve another request
		 * @throws IOException when the client went away
		 */
		boolean toolCall(String id, OutputStream out) throws IOException;

	}

	RawUpstream(Handler handler) {
		this.handler = handler;
		try {
			this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Thread accept = new Thread(this::accept, "raw-upstream-accept");
		accept.setDaemon(true);
		accept.start();
	}

	String url() {
		return "http://127.0.0.1:" + this.server.getLocalPort() + "/mcp";
	}

	int toolCalls() {
		return this.toolCalls.get();
	}

	/** Responses to {@code tools/call} still being written (their handler has not returned or failed). */
	int streaming() {
		return this.streaming.get();
	}

	/** Connections still open on the server side, idle keep-alive ones included. */
	int openConnections() {
		this.open.removeIf(Socket::isClosed);
		return this.open.size();
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing only
		}
		for (Socket socket : this.open) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// closing only
			}
		}
	}

	private void accept() {
		while (!this.closed) {
			try {
				Socket socket = this.server.accept();
				this.open.add(socket);
				Thread connection = new Thread(() -> serve(socket), "raw-upstream-connection");
				connection.setDaemon(true);
				connection.start();
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void serve(Socket socket) {
		try (socket) {
			InputStream in = new BufferedInputStream(socket.getInputStream());
			OutputStream out = socket.getOutputStream();
			while (!this.closed) {
				String requestLine = line(in);
				if (requestLine == null || requestLine.isEmpty()) {
					return;
				}
				Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
				for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
					int colon = header.indexOf(':');
					if (colon > 0) {
						headers.put(header.substring(0, colon).trim(), header.substring(colon + 1).trim());
					}
				}
				int length = Integer.parseInt(headers.getOrDefault("Content-Length", "0"));
				byte[] body = in.readNBytes(length);
				String method = requestLine.split(" ")[0].toUpperCase(Locale.ROOT);
				if (!respond(method, body, out)) {
					return;
				}
			}
		}
		catch (SocketException ex) {
			// the client closed the connection: expected when it gives up on a body
		}
		catch (IOException ex) {
			// likewise
		}
		finally {
			this.open.remove(socket);
		}
	}

	private boolean respond(String httpMethod, byte[] body, OutputStream out) throws IOException {
		if (httpMethod.equals("GET")) {
			return write(out, 405, Map.of(), "");
		}
		if (httpMethod.equals("DELETE")) {
			return write(out, 200, Map.of(), "");
		}
		JsonNode message = JSON.readTree(body);
		String method = message.path("method").asString("");
		JsonNode id = message.get("id");
		if (id == null) {
			return write(out, 202, Map.of(), "");
		}
		String idText = JSON.writeValueAsString(id);
		return switch (method) {
			case "initialize" -> write(out, 200, Map.of("Mcp-Session-Id", SESSION_ID), result(idText,
					"{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
							+ "\"serverInfo\":{\"name\":\"raw\",\"version\":\"1\"}}"));
			case "server/discover" -> write(out, 200, Map.of(), result(idText, "{\"resultType\":\"complete\","
					+ "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{}}}"));
			case "tools/list" -> write(out, 200, Map.of(), result(idText, "{\"tools\":[{\"name\":\"echo\","
					+ "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}]}"));
			case "tools/call" -> {
				this.toolCalls.incrementAndGet();
				this.streaming.incrementAndGet();
				try {
					yield this.handler.toolCall(idText, out);
				}
				finally {
					this.streaming.decrementAndGet();
				}
			}
			default -> write(out, 200, Map.of(), result(idText, "{}"));
		};
	}

	static String result(String id, String result) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
	}

	/** A complete response with a Content-Length, on a connection kept alive. */
	static boolean write(OutputStream out, int status, Map<String, String> headers, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		StringBuilder head = new StringBuilder("HTTP/1.1 ").append(status).append(" X\r\n");
		if (bytes.length > 0) {
			head.append("Content-Type: application/json\r\n");
		}
		headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
		head.append("Content-Length: ").append(bytes.length).append("\r\n\r\n");
		out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.flush();
		return true;
	}

	/** The head of a response whose body runs until the connection closes. */
	static void writeOpenEndedHead(OutputStream out, String contentType) throws IOException {
		out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + contentType + "\r\nConnection: close\r\n\r\n")
			.getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) >= 0) {
			if (b == '\n') {
				String text = line.toString(StandardCharsets.ISO_8859_1);
				return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
			}
			line.write(b);
		}
		return (line.size() > 0) ? line.toString(StandardCharsets.ISO_8859_1) : null;
	}

}
