package dev.mcpx.client.internal.transport.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.util.CollectionUtils;

/**
 * A request factory on the JDK {@link HttpClient} that sends each request with the
 * blocking {@link HttpClient#send} and a byte-array body, on the caller's thread. Spring's
 * {@code JdkClientHttpRequestFactory} streams every body through a publisher on another
 * thread (a new one per request unless the client has an executor) and waits on a future:
 * on loopback that costs more than the exchange itself. MCP messages are small and
 * complete before they are sent, so nothing is lost by buffering them.
 * <p>
 * No read timeout: the client's watchdog bounds each exchange, by interrupting the
 * caller while it waits for headers and by closing the body while it is read. Closing a
 * response reads only a small body of declared length to its end (to keep the connection);
 * any other body may never end, and is cut.
 */
public final class BlockingJdkRequestFactory implements ClientHttpRequestFactory {

	/** Headers the JDK client sets itself and refuses from callers. */
	private static final Set<String> RESTRICTED = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

	static {
		RESTRICTED.addAll(Set.of("connection", "content-length", "expect", "host", "upgrade"));
	}

	/** The largest rest of a body read to its end on close, so that its connection is kept. */
	private static final long MAX_DRAINED_BYTES = 64 * 1024;

	private final HttpClient client;

	/**
	 * Creates a factory on the given client.
	 * @param client the client, configured with its connect timeout, TLS and redirects
	 */
	public BlockingJdkRequestFactory(HttpClient client) {
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

		private final ByteArrayOutputStream body = new ByteArrayOutputStream(512);

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
			HttpRequest.Builder request = HttpRequest.newBuilder(this.uri);
			// The map itself: HttpHeaders.forEach builds a case-insensitive name set per call.
			this.headers.asMultiValueMap().forEach((name, values) -> {
				if (!RESTRICTED.contains(name)) {
					values.forEach((value) -> request.header(name, value));
				}
			});
			byte[] bytes = this.body.toByteArray();
			request.method(this.method.name(), (bytes.length > 0) ? HttpRequest.BodyPublishers.ofByteArray(bytes)
					: HttpRequest.BodyPublishers.noBody());
			try {
				return new Response(BlockingJdkRequestFactory.this.client.send(request.build(),
						InterruptibleBody.handler()));
			}
			catch (InterruptedException ex) {
				// The watchdog's deadline, usually: the caller's guard clears the flag again.
				Thread.currentThread().interrupt();
				throw new InterruptedIOException("interrupted while waiting for the response");
			}
		}

	}

	private static final class Response implements ClientHttpResponse {

		private final HttpResponse<InputStream> response;

		private final HttpHeaders headers;

		Response(HttpResponse<InputStream> response) {
			this.response = response;
			// A view, not a copy: the JDK's map is already read-only and case-insensitive.
			this.headers = HttpHeaders.readOnlyHttpHeaders(CollectionUtils.toMultiValueMap(response.headers().map()));
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

		/**
		 * Releases the connection. The JDK client pools a connection only if its body was
		 * read to the end; closing it before the end drops the connection, and the next
		 * request pays for a new one (measured: one call in five, before this). So a body
		 * of a small declared length is read to its end first: it cannot run past its
		 * length, and a stall is cut by the exchange's deadline, which closes the body. A
		 * body without a length may never end (an event stream) and is cut at once.
		 */
		@Override
		public void close() {
			InputStream body = this.response.body();
			try {
				long length = this.response.headers().firstValueAsLong("Content-Length").orElse(-1);
				if (length >= 0 && length <= MAX_DRAINED_BYTES) {
					for (long read = 0; read <= length && body.read() != -1; read++) {
						// what the reader left of the body
					}
				}
			}
			catch (IOException | NumberFormatException ex) {
				// Already closed or broken, or a length that is not one: closing is all that is left.
			}
			try {
				body.close();
			}
			catch (IOException ex) {
				// Closing only releases the connection.
			}
		}

	}

}
