package dev.mcpx.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.mcpx.sample.demo.DemoUpstream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.test.context.DynamicPropertyRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The running sample app, as the outside-in tests talk to it over HTTP: one per test class,
 * on a port free when it was made, with the {@code demo} client pointed at the app's own
 * demo upstream.
 */
public final class SampleHttp {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final int port;

	private final HttpClient http = HttpClient.newHttpClient();

	private SampleHttp(int port) {
		this.port = port;
	}

	/**
	 * An app to be started on a port free on this machine now.
	 * @return the app's HTTP side
	 */
	public static SampleHttp onFreePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return new SampleHttp(socket.getLocalPort());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Starts the app on this port, on loopback, with the {@code demo} client on its own demo
	 * upstream.
	 * @param registry the test's dynamic properties
	 */
	public void register(DynamicPropertyRegistry registry) {
		registry.add("server.port", () -> this.port);
		registry.add("server.address", () -> "127.0.0.1");
		registry.add("mcpx.clients.demo.url", this::demoUpstreamUrl);
	}

	/**
	 * The URL the {@code demo} client is configured with.
	 * @return the demo upstream's URL
	 */
	public String demoUpstreamUrl() {
		return "http://127.0.0.1:" + this.port + DemoUpstream.PATH;
	}

	/**
	 * A URL of the app.
	 * @param path the path
	 * @return the URL
	 */
	public URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

	/**
	 * Sends a request and reads the answer as text.
	 * @param request the request
	 * @return the response
	 */
	public HttpResponse<String> send(HttpRequest request) {
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Calls a tool of the {@code demo} upstream through the app, which must answer 200.
	 * @param tool the tool name
	 * @param arguments the arguments, as JSON
	 * @return the app's answer
	 */
	public JsonNode callTool(String tool, String arguments) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/upstreams/demo/tools/" + tool))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(arguments))
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json.readTree(response.body());
	}

	/**
	 * Restarts the demo upstream, which must say it did.
	 * @return the app's answer
	 */
	public JsonNode restartUpstream() {
		HttpResponse<String> response = send(
				HttpRequest.newBuilder(uri("/demo/restart")).POST(HttpRequest.BodyPublishers.noBody()).build());
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode restarted = json.readTree(response.body());
		assertThat(restarted.get("restarted").asBoolean()).isTrue();
		return restarted;
	}

}
