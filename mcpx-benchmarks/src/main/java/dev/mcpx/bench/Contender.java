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
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Content;
import dev.mcpx.client.transport.BlockingJdkRequestFactory;

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
	 * @param kind {@code mcpx}, {@code sdk}, {@code raw}, or {@code spring} (a diagnostic: mcpx's
	 * HTTP layer alone)
	 * @param url the MCP endpoint
	 * @return the contender, its session open
	 */
	static Contender open(String kind, String url) {
		Contender contender = switch (kind) {
			case "mcpx" -> new Mcpx(url);
			case "sdk" -> new Sdk(url);
			case "raw" -> new Raw(url);
			case "spring" -> new Spring(url);
			case "mcpx-sync" -> new Mcpx(url, true);
			default -> throw new IllegalArgumentException(
					"Unknown contender '" + kind + "'; mcpx, sdk, raw or spring");
		};
		contender.verify();
		return contender;
	}

	/** mcpx, as an application builds it for a legacy upstream, with its defaults. */
	final class Mcpx implements Contender {

		final McpClient client;

		Mcpx(String url) {
			this(url, false);
		}

		/**
		 * @param url the endpoint
		 * @param threadFree a diagnostic: mcpx with {@link BlockingJdkRequestFactory} given
		 * explicitly through the public {@code restClientBuilder} option (what the client
		 * builds by default since the prototype moved into it)
		 */
		Mcpx(String url, boolean threadFree) {
			McpClientBuilder builder = McpClient.builder("bench", URI.create(url)).protocol(ProtocolMode.LEGACY);
			if (threadFree) {
				HttpClient http = HttpClient.newBuilder()
					.version(HttpClient.Version.HTTP_1_1)
					.connectTimeout(Duration.ofSeconds(5))
					.followRedirects(HttpClient.Redirect.NEVER)
					.build();
				builder.restClientBuilder(RestClient.builder().requestFactory(new BlockingJdkRequestFactory(http)));
			}
			this.client = builder.build();
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
	 * {@code HttpClientStreamableHttpTransport}, on HTTP/1.1 like the others.
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
				.requestTimeout(Duration.ofSeconds(30))
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
	 */
	final class Raw implements Contender {

		private static final byte[] CALL_HEAD = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.US_ASCII);

		private static final byte[] CALL_TAIL = (",\"method\":\"tools/call\",\"params\":{\"name\":\"" + Upstream.TOOL
				+ "\",\"arguments\":{\"text\":\"" + Upstream.TEXT + "\"}}}").getBytes(StandardCharsets.US_ASCII);

		private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
				+ "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

		private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

		private final HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();

		private final URI uri;

		private final AtomicLong ids = new AtomicLong();

		private volatile HttpRequest.Builder template;

		final String session;

		final String version;

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
			this.session = session;
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
			byte[] json = callJson(this.ids.incrementAndGet());
			HttpResponse<byte[]> response = send(
					this.template.copy().POST(HttpRequest.BodyPublishers.ofByteArray(json)).build());
			if (response.statusCode() != 200) {
				throw new IllegalStateException("raw call answered HTTP " + response.statusCode());
			}
			return response.body();
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
				return this.http.send(request, HttpResponse.BodyHandlers.ofByteArray());
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

	/**
	 * A diagnostic, not a contender: mcpx's HTTP layer alone. Spring's {@code RestClient} on
	 * {@code JdkClientHttpRequestFactory} over an HTTP/1.1 JDK {@code HttpClient}, exactly as
	 * {@code McpClientBuilder} builds it by default, POSTing the bytes the raw contender
	 * posts and reading the body as bytes. mcpx minus this is mcpx's own layers; this minus
	 * raw is the cost of the HTTP layer mcpx chose.
	 */
	final class Spring implements Contender {

		private final RestClient rest;

		private final URI uri;

		private final String session;

		private final String version;

		private final AtomicLong ids = new AtomicLong();

		Spring(String url) {
			Raw handshake = new Raw(url);
			this.session = handshake.session;
			this.version = handshake.version;
			this.uri = URI.create(url);
			HttpClient http = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.connectTimeout(Duration.ofSeconds(5))
				.followRedirects(HttpClient.Redirect.NEVER)
				.build();
			this.rest = RestClient.builder().requestFactory(new JdkClientHttpRequestFactory(http)).build();
		}

		@Override
		public byte[] call() {
			byte[] json = Raw.callJson(this.ids.incrementAndGet());
			return this.rest.post()
				.uri(this.uri)
				.headers((h) -> {
					h.set(HttpHeaders.ACCEPT, "application/json, text/event-stream");
					h.setContentType(MediaType.APPLICATION_JSON);
					h.set("MCP-Session-Id", this.session);
					h.set("MCP-Protocol-Version", this.version);
				})
				.body(json)
				.exchange((request, response) -> {
					if (response.getStatusCode().value() != 200) {
						throw new IllegalStateException("spring call answered HTTP " + response.getStatusCode());
					}
					return response.getBody().readAllBytes();
				}, true);
		}

		@Override
		public void verify() {
			String body = new String(call(), StandardCharsets.UTF_8);
			if (!body.contains("\"text\":\"" + Upstream.TEXT + "\"")) {
				throw new IllegalStateException("spring call got an unexpected body: " + body);
			}
		}

		@Override
		public void close() {
		}

	}

}
