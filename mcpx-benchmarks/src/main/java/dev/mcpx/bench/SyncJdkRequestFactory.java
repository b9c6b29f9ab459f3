package dev.mcpx.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

/**
 * A prototype, for the diagnostic contender {@code mcpx-sync} only: a request factory on
 * the JDK {@link HttpClient} that buffers the body and sends it with the blocking
 * {@link HttpClient#send}, {@code BodyPublishers.ofByteArray}. Spring's
 * {@code JdkClientHttpRequestFactory} instead streams every body through an
 * {@code OutputStreamPublisher} on its executor (a new thread per request when the
 * {@code HttpClient} has no executor: {@code SimpleAsyncTaskExecutor}) and waits with
 * {@code sendAsync(...).get()} (a new thread per request where the common ForkJoin pool
 * has fewer than 2 threads, i.e. on 1-2 CPUs: the JDK completes it on
 * {@code CompletableFuture}'s thread-per-task fallback). This one starts no thread.
 * Not production code: no timeout handling, no compression.
 */
final class SyncJdkRequestFactory implements ClientHttpRequestFactory {

	private static final Set<String> RESTRICTED = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

	static {
		RESTRICTED.addAll(List.of("connection", "content-length", "expect", "host", "upgrade"));
	}

	private final HttpClient client;

	SyncJdkRequestFactory(HttpClient client) {
		this.client = client;
	}

	@Override
	public ClientHttpRequest createRequest(URI uri, HttpMethod method) {
		return new Request(uri, method);
	}

	private final class Request implements ClientHttpRequest {

		private final URI uri;

		private final HttpMethod method;

		private final HttpHeaders headers = new HttpHeaders();

		private final ByteArrayOutputStream body = new ByteArrayOutputStream(256);

		private final Map<String, Object> attributes = new LinkedHashMap<>();

		Request(URI uri, HttpMethod method) {
			this.uri = uri;
			this.method = method;
		}

		@Override
		public HttpMethod getMethod() {
			return this.method;
		}

		@Override
		public URI getURI() {
			return this.uri;
		}

		@Override
		public Map<String, Object> getAttributes() {
			return this.attributes;
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public OutputStream getBody() {
			return this.body;
		}

		@Override
		public ClientHttpResponse execute() throws IOException {
			HttpRequest.Builder builder = HttpRequest.newBuilder(this.uri).timeout(Duration.ofSeconds(60));
			this.headers.forEach((name, values) -> {
				if (!RESTRICTED.contains(name)) {
					values.forEach((value) -> builder.header(name, value));
				}
			});
			byte[] bytes = this.body.toByteArray();
			builder.method(this.method.name(), (bytes.length > 0) ? HttpRequest.BodyPublishers.ofByteArray(bytes)
					: HttpRequest.BodyPublishers.noBody());
			try {
				return new Response(SyncJdkRequestFactory.this.client.send(builder.build(),
						HttpResponse.BodyHandlers.ofInputStream()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new InterruptedIOException("interrupted");
			}
		}

	}

	private static final class Response implements ClientHttpResponse {

		private final HttpResponse<InputStream> response;

		private final HttpHeaders headers = new HttpHeaders();

		Response(HttpResponse<InputStream> response) {
			this.response = response;
			response.headers().map().forEach(this.headers::addAll);
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return HttpStatusCode.valueOf(this.response.statusCode());
		}

		@Override
		public String getStatusText() {
			return "";
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public InputStream getBody() {
			return this.response.body();
		}

		@Override
		public void close() {
			try {
				this.response.body().close();
			}
			catch (IOException ex) {
				// releasing the connection only
			}
		}

	}

}
