package dev.mcpx.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JSON-RPC over raw HTTP with the JDK client, no mcpx code: enough to prove what a test peer does
 * on the wire (its answers, hooks and counters) before client tests rely on it.
 */
final class RawRpc {

	static final JsonMapper JSON = JsonMapper.shared();

	/** Bound of one exchange, generous: the peers answer in milliseconds. */
	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(10))
		.build();

	/**
	 * POSTs a JSON body with the given headers (and the {@code Content-Type} and {@code Accept}
	 * every MCP POST carries).
	 * @param url the MCP endpoint
	 * @param headers further headers
	 * @param body the JSON-RPC message
	 * @return the response, its body read as text
	 * @throws IOException when the connection fails or is cut
	 */
	HttpResponse<String> post(String url, Map<String, String> headers, JsonNode body)
			throws IOException, InterruptedException {
		return this.http.send(request(url, headers, body), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * POSTs like {@link #post} and reads the answer as a stream of SSE messages while it lasts.
	 * @param url the MCP endpoint
	 * @param headers further headers
	 * @param body the JSON-RPC message
	 * @return the open stream
	 */
	SseStream open(String url, Map<String, String> headers, JsonNode body) {
		return read(request(url, headers, body));
	}

	/**
	 * Opens a GET stream (the legacy era's stream for messages outside any request).
	 * @param url the MCP endpoint
	 * @param headers further headers (the session)
	 * @return the open stream
	 */
	SseStream get(String url, Map<String, String> headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream").GET();
		headers.forEach(request::header);
		return read(request.build());
	}

	private SseStream read(HttpRequest request) {
		SseStream stream = new SseStream();
		this.http.sendAsync(request, HttpResponse.BodyHandlers.ofLines()).whenComplete((response, failure) -> {
			if (failure != null) {
				stream.end(failure);
				return;
			}
			stream.status.complete(response.statusCode());
			try (java.util.stream.Stream<String> lines = response.body()) {
				lines.forEach(stream::line);
				stream.end(null);
			}
			catch (RuntimeException ex) {
				stream.end(ex);
			}
		});
		return stream;
	}

	private static HttpRequest request(String url, Map<String, String> headers, JsonNode body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
			.timeout(TIMEOUT)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
		headers.forEach(request::header);
		return request.build();
	}

	/**
	 * The JSON-RPC messages of a response: the body itself when it is JSON, each non-empty
	 * {@code data:} line when it is an SSE stream.
	 * @param response the response
	 * @return the messages, in order
	 */
	static List<JsonNode> messages(HttpResponse<String> response) {
		String type = response.headers().firstValue("Content-Type").orElse("");
		if (!type.startsWith("text/event-stream")) {
			return response.body().isBlank() ? List.of() : List.of(JSON.readTree(response.body()));
		}
		List<JsonNode> messages = new ArrayList<>();
		for (String line : response.body().split("\r?\n")) {
			JsonNode message = data(line);
			if (message != null) {
				messages.add(message);
			}
		}
		return messages;
	}

	/**
	 * The answer of a response: the one message that carries {@code result} or {@code error}.
	 * @param response the response
	 * @return the JSON-RPC response message
	 */
	static JsonNode answer(HttpResponse<String> response) {
		List<JsonNode> answers = messages(response).stream()
			.filter((message) -> message.has("result") || message.has("error"))
			.toList();
		assertThat(answers).as("the JSON-RPC answer in %s", response.body()).hasSize(1);
		return answers.get(0);
	}

	private static JsonNode data(String line) {
		if (!line.startsWith("data:")) {
			return null;
		}
		String data = line.substring("data:".length()).trim();
		return data.isEmpty() ? null : JSON.readTree(data);
	}

	/** An SSE response read as it arrives. */
	static final class SseStream {

		private static final JsonNode END = JSON.createObjectNode();

		private final BlockingQueue<JsonNode> queue = new LinkedBlockingQueue<>();

		private final CompletableFuture<Integer> status = new CompletableFuture<>();

		private volatile Throwable failure;

		private void line(String line) {
			JsonNode message = data(line);
			if (message != null) {
				this.queue.add(message);
			}
		}

		private void end(Throwable failure) {
			this.failure = failure;
			this.status.completeExceptionally(new IllegalStateException("no response", failure));
			this.queue.add(END);
		}

		/**
		 * The next message, waiting at most {@code timeout}.
		 * @param timeout how long to wait
		 * @return the message
		 * @throws AssertionError when none arrives in time or the stream ended
		 */
		JsonNode next(Duration timeout) throws InterruptedException {
			JsonNode message = this.queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(message).as("a message on the stream within %s", timeout).isNotNull();
			assertThat(message).as("a message before the stream ended (%s)", this.failure).isNotSameAs(END);
			return message;
		}

		/**
		 * The HTTP status, once the response began.
		 * @return the status code
		 */
		int status() throws Exception {
			return this.status.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}

	}

}
