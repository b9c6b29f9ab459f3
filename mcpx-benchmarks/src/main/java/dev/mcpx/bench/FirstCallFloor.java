package dev.mcpx.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The floor of an upstream's first {@code tools/call}: the exchanges mcpx's first call makes,
 * made raw in sequence on a connection of their own. Legacy era (2025-11-25): the
 * {@code initialize} request, the {@code notifications/initialized} notification, the
 * {@code tools/list} request (mcpx learns the tool's annotations before its first call), and
 * the call. Modern era (2026-07-28): {@code server/discover}, {@code tools/list} and the call,
 * each with the version and method headers and the version in {@code _meta}. The JDK
 * {@link HttpClient} on HTTP/1.1, bodies read as bytes, no JSON parsing.
 */
final class FirstCallFloor implements AutoCloseable {

	private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}";

	private static final String MODERN = "2026-07-28";

	private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + MODERN
			+ "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
			+ "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}";

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/**
	 * Makes the four exchanges against the given endpoint.
	 * @param url the endpoint, one this client has not connected to yet
	 * @return how long they took, in nanoseconds
	 */
	long firstCall(URI url) throws IOException, InterruptedException {
		long t0 = System.nanoTime();
		HttpResponse<byte[]> init = send(base(url), Contender.Raw.INITIALIZE);
		String session = init.headers()
			.firstValue("Mcp-Session-Id")
			.orElseThrow(() -> new IOException("initialize answered " + init.statusCode() + " without a session"));
		HttpRequest.Builder inSession = base(url).header("MCP-Session-Id", session)
			.header("MCP-Protocol-Version", "2025-11-25");
		send(inSession.copy(), Contender.Raw.INITIALIZED);
		send(inSession.copy(), LIST);
		send(inSession.copy(), new String(Contender.Raw.callJson(2), java.nio.charset.StandardCharsets.US_ASCII));
		return System.nanoTime() - t0;
	}

	/**
	 * Makes the modern era's three exchanges against the given endpoint.
	 * @param url the endpoint, one this client has not connected to yet
	 * @return how long they took, in nanoseconds
	 */
	long modernFirstCall(URI url) throws IOException, InterruptedException {
		long t0 = System.nanoTime();
		send(modern(url, "server/discover"),
				"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"server/discover\",\"params\":{" + MODERN_META + "}}");
		send(modern(url, "tools/list"),
				"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" + MODERN_META + "}}");
		send(modern(url, "tools/call"), "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\""
				+ Upstream.TOOL + "\",\"arguments\":{\"text\":\"" + Upstream.TEXT + "\"}," + MODERN_META + "}}");
		return System.nanoTime() - t0;
	}

	private static HttpRequest.Builder modern(URI url, String method) {
		return base(url).header("MCP-Protocol-Version", MODERN).header("Mcp-Method", method);
	}

	private static HttpRequest.Builder base(URI url) {
		return HttpRequest.newBuilder(url)
			.timeout(Duration.ofSeconds(30))
			.header("Accept", "application/json, text/event-stream")
			.header("Content-Type", "application/json");
	}

	private HttpResponse<byte[]> send(HttpRequest.Builder request, String json) throws IOException, InterruptedException {
		HttpResponse<byte[]> response = this.http.send(request.POST(HttpRequest.BodyPublishers.ofString(json)).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		if (response.statusCode() >= 300) {
			throw new IOException("the floor's exchange was answered " + response.statusCode());
		}
		return response;
	}

	@Override
	public void close() {
		// HttpClient has no close() before JDK 21: its selector thread ends when it is unreachable.
	}

}
