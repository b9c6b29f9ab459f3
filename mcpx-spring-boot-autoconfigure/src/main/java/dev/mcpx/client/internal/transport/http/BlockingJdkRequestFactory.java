package dev.mcpx.client.internal.transport.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequest;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.ClientHttpResponse;

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

	private final JdkClientSource client;

	/**
	 * Creates a factory on the given client.
	 * @param client the client, configured with its connect timeout, TLS and redirects
	 */
	public BlockingJdkRequestFactory(HttpClient client) {
		this(JdkClientSource.of(client));
	}

	/**
	 * Creates a factory on a client obtained when the first request is sent, so that
	 * nothing is built before first use.
	 * @param client supplies the client, configured with its connect timeout, TLS and
	 * redirects; asked on every request, so it returns the same client cheaply, and told
	 * when the response is closed
	 */
	public BlockingJdkRequestFactory(JdkClientSource client) {
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
			JdkClientSource source = BlockingJdkRequestFactory.this.client;
			HttpClient client = source.acquire();
			try {
				return new Response(JdkHttp.send(client, this.uri, this.method.name(), this.headers,
						this.body.toByteArray()), source);
			}
			catch (IOException | RuntimeException | Error ex) {
				source.release();
				throw ex;
			}
		}

	}

	private static final class Response implements ClientHttpResponse {

		private final HttpResponse<InputStream> response;

		private final HttpHeaders headers;

		private final JdkClientSource source;

		private final AtomicBoolean closed = new AtomicBoolean();

		Response(HttpResponse<InputStream> response, JdkClientSource source) {
			this.response = response;
			this.headers = JdkHttp.headers(response);
			this.source = source;
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

		/** Releases the connection, keeping it when the body is small enough to finish. */
		@Override
		public void close() {
			if (this.closed.compareAndSet(false, true)) {
				try {
					JdkHttp.release(this.response);
				}
				finally {
					this.source.release();
				}
			}
		}

	}

}
