package dev.mcpx.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Content;

/**
 * One way of calling {@code tools/call echo {"text":"hello"}} on an upstream: mcpx, the
 * official Java SDK client, or a raw JDK {@link HttpClient} POST of the same JSON. Each is
 * thread-safe and opened (session initialized) before use.
 */
interface Contender extends AutoCloseable {

	/** The arguments of every call. */
	Map<String, Object> ARGUMENTS = Map.of("text", Upstream.TEXT);

	/**
	 * Calls the tool once.
	 * @return the result, checked to be the expected one by {@link #verify()}
	 */
	Object call();

	/** Calls once and fails unless the result is the echoed text. */
	void verify();

	@Override
	void close();

	/**
	 * Opens a contender on an upstream.
	 * @param kind {@code mcpx}, {@code sdk} or {@code raw}
	 * @param url the MCP endpoint
	 * @return the contender, its session open
	 */
	static Contender open(String kind, String url) {
		Contender contender = switch (kind) {
			case "mcpx" -> new Mcpx(url);
			case "sdk" -> new Sdk(url);
			case "raw" -> new Raw(url);
			default -> throw new IllegalArgumentException("Unknown contender '" + kind + "'; mcpx, sdk or raw");
		};
		contender.verify();
		return contender;
	}

	/** mcpx, as an application builds it for a legacy upstream, with its defaults. */
	final class Mcpx implements Contender {

		final McpClient client;

		Mcpx(String url) {
			this.client = McpClient.builder("bench", URI.create(url)).protocol(ProtocolMode.LEGACY).build();
		}

		@Override
		public CallToolResult call() {
			return this.client.callTool(Upstream.TOOL, ARGUMENTS);
		}

		@Override
		public void verify() {
			CallToolResult result = call();
			if (result.isError() || result.content().size() != 1
					|| !(result.content().get(0) instanceof Content.Text text) || !Upstream.TEXT.equals(text.text())) {
				throw new IllegalStateException("mcpx got an unexpected result: " + result);
			}
		}

		@Override
		public void close() {
			this.client.close();
		}

	}

	/**
	 * The official MCP Java SDK 2.1.0 client: {@code McpSyncClient} over
	 * {@code HttpClientStreamableHttpTransport}, on HTTP/1.1 like the others. Its request
	 * timeout is 5 s: in a storm after an expiry some of its callers never get an answer and
	 * wait for the whole timeout, so the timeout only bounds how long a hung caller holds the
	 * run (the storm still reports it as {@code slowest_caller_ms}). No normal call comes near
	 * it. mcpx's own timeout needs no such setting: its callers do not hang.
	 */
	final class Sdk implements Contender {

		private static final McpSchema.CallToolRequest REQUEST = new McpSchema.CallToolRequest(Upstream.TOOL,
				ARGUMENTS);

		final McpSyncClient client;

		Sdk(String url) {
			URI uri = URI.create(url);
			HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
				.builder(uri.getScheme() + "://" + uri.getRawAuthority())
				.endpoint(uri.getRawPath())
				.customizeClient((builder) -> builder.version(HttpClient.Version.HTTP_1_1))
				.build();
			this.client = io.modelcontextprotocol.client.McpClient.sync(transport)
				.requestTimeout(Duration.ofSeconds(5))
				.build();
			this.client.initialize();
		}

		@Override
		public McpSchema.CallToolResult call() {
			return this.client.callTool(REQUEST);
		}

		@Override
		public void verify() {
			McpSchema.CallToolResult result = call();
			if (Boolean.TRUE.equals(result.isError()) || result.content().size() != 1
					|| !(result.content().get(0) instanceof McpSchema.TextContent text)
					|| !Upstream.TEXT.equals(text.text())) {
				throw new IllegalStateException("the SDK client got an unexpected result: " + result);
			}
		}

		@Override
		public void close() {
			this.client.close();
		}

	}

	/**
	 * The physical limit: the JDK {@link HttpClient} (HTTP/1.1, keep-alive) POSTing the JSON
	 * mcpx sends, with the headers mcpx sends, reading the body as bytes. No JSON parsing.
	 * A request that meets JDK-8338569 (the connection pool's cleanup closes a connection
	 * just taken out of the pool: "header parser received no bytes", seen under load at 16
	 * threads) is sent once more, so that a JDK race does not void the whole run.
	 */
	final class Raw implements Contender {

		private static final byte[] CALL_HEAD = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.US_ASCII);

		private static final byte[] CALL_TAIL = (",\"method\":\"tools/call\",\"params\":{\"name\":\"" + Upstream.TOOL
				+ "\",\"arguments\":{\"text\":\"" + Upstream.TEXT + "\"}}}").getBytes(StandardCharsets.US_ASCII);

		static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
				+ "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

		static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

		private final HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();

		private final URI uri;

		private final AtomicLong ids = new AtomicLong();

		private volatile HttpRequest.Builder template;

		private final String version;

		/**
		 * A new session's handshake on this client's connections (initialize, then
		 * notifications/initialized), as mcpx performs it when it recovers.
		 */
		void handshake() {
			HttpResponse<byte[]> init = send(base().POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build());
			String newSession = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
			this.template = base().header("MCP-Session-Id", newSession).header("MCP-Protocol-Version", this.version);
			send(this.template.copy().POST(HttpRequest.BodyPublishers.ofString(INITIALIZED)).build());
		}

		Raw(String url) {
			this.uri = URI.create(url);
			HttpResponse<byte[]> init = send(base().POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build());
			String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
			String body = new String(init.body(), StandardCharsets.UTF_8);
			String version = body.replaceAll("(?s).*\"protocolVersion\"\\s*:\\s*\"([^\"]+)\".*", "$1");
			if (body.equals(version)) {
				// an event stream or an unusual body: the version this client asked for
				version = "2025-11-25";
			}
			this.version = version;
			this.template = base().header("MCP-Session-Id", session).header("MCP-Protocol-Version", version);
			send(this.template.copy().POST(HttpRequest.BodyPublishers.ofString(INITIALIZED)).build());
		}

		private HttpRequest.Builder base() {
			return HttpRequest.newBuilder(this.uri)
				.timeout(Duration.ofSeconds(30))
				.header("Accept", "application/json, text/event-stream")
				.header("Content-Type", "application/json");
		}

		/** The bytes of the {@code tools/call} request mcpx sends, with the given id. */
		static byte[] callJson(long requestId) {
			byte[] id = Long.toString(requestId).getBytes(StandardCharsets.US_ASCII);
			byte[] json = new byte[CALL_HEAD.length + id.length + CALL_TAIL.length];
			System.arraycopy(CALL_HEAD, 0, json, 0, CALL_HEAD.length);
			System.arraycopy(id, 0, json, CALL_HEAD.length, id.length);
			System.arraycopy(CALL_TAIL, 0, json, CALL_HEAD.length + id.length, CALL_TAIL.length);
			return json;
		}

		@Override
		public byte[] call() {
			HttpResponse<byte[]> response = postCall();
			if (response.statusCode() != 200) {
				throw new IllegalStateException("raw call answered HTTP " + response.statusCode());
			}
			return response.body();
		}

		/**
		 * Sends the call once, whatever the answer: the first exchange of a recovery, which
		 * an upstream that forgot the session answers 404.
		 * @return the HTTP status
		 */
		int callStatus() {
			return postCall().statusCode();
		}

		private HttpResponse<byte[]> postCall() {
			byte[] json = callJson(this.ids.incrementAndGet());
			return send(this.template.copy().POST(HttpRequest.BodyPublishers.ofByteArray(json)).build());
		}

		@Override
		public void verify() {
			String body = new String(call(), StandardCharsets.UTF_8);
			if (!body.contains("\"text\":\"" + Upstream.TEXT + "\"")) {
				throw new IllegalStateException("raw call got an unexpected body: " + body);
			}
		}

		private HttpResponse<byte[]> send(HttpRequest request) {
			try {
				try {
					return this.http.send(request, HttpResponse.BodyHandlers.ofByteArray());
				}
				catch (IOException ex) {
					if (ex.getMessage() == null || !ex.getMessage().contains("received no bytes")) {
						throw ex;
					}
					return this.http.send(request, HttpResponse.BodyHandlers.ofByteArray()); // JDK-8338569
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

		@Override
		public void close() {
			// HttpClient has no close() before JDK 21: its selector thread ends when it is unreachable.
		}

	}

}
