package dev.mcpx.client.internal.transport.http;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.internal.transport.NotSentException;

/**
 * One HTTP exchange with the MCP endpoint per call, on the caller's thread: the request
 * goes out through the application's {@link RestClient} (its request factory,
 * interceptors and observation apply), or, when the client was built without one, straight
 * to the JDK {@link HttpClient} (see {@link JdkHttp}), which sends the same request without
 * the pipeline nothing uses then; the response is handed to a reader while open. It knows
 * HTTP, not MCP: {@link HttpTransport} decides which headers go out and what a status
 * means. Each call makes exactly one attempt.
 */
final class HttpLeg {

	/** 2025-11-25 transports §Sending Messages, rule 2: both types, always. */
	static final String ACCEPT_POST = "application/json, text/event-stream";

	private static final byte[] NO_BODY = new byte[0];

	private final @Nullable Supplier<RestClient> restClient;

	private final @Nullable JdkClientSource jdkClient;

	private final URI endpoint;

	private HttpLeg(@Nullable Supplier<RestClient> restClient, @Nullable JdkClientSource jdkClient, URI endpoint) {
		this.restClient = restClient;
		this.jdkClient = jdkClient;
		this.endpoint = endpoint;
	}

	/**
	 * The exchanges with one MCP endpoint through a {@link RestClient}.
	 * @param restClient supplies the client that performs the exchanges, on every exchange (it
	 * may build it on the first)
	 * @param endpoint the MCP endpoint URL
	 * @return the exchanges
	 */
	static HttpLeg throughRestClient(Supplier<RestClient> restClient, URI endpoint) {
		return new HttpLeg(restClient, null, endpoint);
	}

	/**
	 * The exchanges with one MCP endpoint straight on a JDK client.
	 * @param jdkClient supplies the client on every exchange (built on first use), and is told
	 * when each exchange is over
	 * @param endpoint the MCP endpoint URL
	 * @return the exchanges
	 */
	static HttpLeg direct(JdkClientSource jdkClient, URI endpoint) {
		return new HttpLeg(null, jdkClient, endpoint);
	}

	/**
	 * The MCP endpoint.
	 * @return the URL
	 */
	public URI endpoint() {
		return this.endpoint;
	}

	/**
	 * POSTs one JSON-RPC message and hands the response to the reader.
	 * @param <T> the reader's result
	 * @param json the message, UTF-8 JSON
	 * @param headers adds the session's headers
	 * @param reader reads the response; the response is closed after it returns
	 * @return what the reader returned
	 * @throws IOException if the exchange fails; {@link NotSentException} when the request
	 * never reached the server
	 */
	public <T> T post(byte[] json, Consumer<HttpHeaders> headers, ResponseReader<T> reader) throws IOException {
		return exchange(HttpMethod.POST, json, (h) -> {
			h.set(HttpHeaders.ACCEPT, ACCEPT_POST);
			h.setContentType(MediaType.APPLICATION_JSON);
			headers.accept(h);
		}, reader);
	}

	/**
	 * Opens a GET event stream (listening or resumption) and hands it to the reader.
	 * @param <T> the reader's result
	 * @param headers adds the session's headers (and {@code Last-Event-ID} to resume)
	 * @param reader reads the response; the response is closed after it returns
	 * @return what the reader returned
	 * @throws IOException if the exchange fails
	 */
	public <T> T get(Consumer<HttpHeaders> headers, ResponseReader<T> reader) throws IOException {
		return exchange(HttpMethod.GET, null, (h) -> {
			h.set(HttpHeaders.ACCEPT, MediaType.TEXT_EVENT_STREAM_VALUE);
			headers.accept(h);
		}, reader);
	}

	/**
	 * Sends a DELETE to end a session.
	 * @param headers adds the session's headers
	 * @return the HTTP status
	 * @throws IOException if the exchange fails
	 */
	public int delete(Consumer<HttpHeaders> headers) throws IOException {
		return exchange(HttpMethod.DELETE, null, headers, Response::status);
	}

	private <T> T exchange(HttpMethod method, byte @Nullable [] body, Consumer<HttpHeaders> headers,
			ResponseReader<T> reader) throws IOException {
		JdkClientSource jdk = this.jdkClient;
		if (jdk == null) {
			return throughRestClient(method, body, headers, reader);
		}
		HttpClient client = jdk.acquire();
		try {
			return direct(client, method, body, headers, reader);
		}
		finally {
			// The body is read or cut by now: nothing of this exchange runs on the client.
			jdk.release();
		}
	}

	/**
	 * The exchange as {@link #throughRestClient} makes it with the blocking JDK request
	 * factory, minus the pipeline: the same request on the wire, the same failures (a
	 * request provably never sent is a {@link NotSentException}), the same release of the
	 * response.
	 */
	private <T> T direct(HttpClient client, HttpMethod method, byte @Nullable [] body, Consumer<HttpHeaders> headers,
			ResponseReader<T> reader) throws IOException {
		HttpHeaders requestHeaders = new HttpHeaders();
		headers.accept(requestHeaders);
		HttpResponse<InputStream> response;
		try {
			response = JdkHttp.send(client, this.endpoint, method.name(), requestHeaders,
					(body != null) ? body : NO_BODY);
		}
		catch (IOException ex) {
			throw NotSentException.provesNotSent(ex) ? new NotSentException(ex) : ex;
		}
		InputStream stream = response.body();
		T result;
		try {
			result = reader.read(new Response(response.statusCode(), JdkHttp.headers(response), stream));
		}
		catch (IOException | RuntimeException ex) {
			// As below: abort the body rather than drain what may never end.
			closeQuietly(stream);
			throw ex;
		}
		JdkHttp.release(response);
		return result;
	}

	private <T> T throughRestClient(HttpMethod method, byte @Nullable [] body, Consumer<HttpHeaders> headers,
			ResponseReader<T> reader) throws IOException {
		// chosen only for a leg made throughRestClient
		Supplier<RestClient> restClient = Objects.requireNonNull(this.restClient, "restClient");
		RestClient.RequestBodySpec spec = restClient.get().method(method).uri(this.endpoint).headers(headers);
		if (body != null) {
			spec = spec.body(body);
		}
		boolean[] responded = new boolean[1];
		try {
			return spec.exchange((request, response) -> {
				responded[0] = true;
				InputStream stream = response.getBody();
				try {
					return reader.read(new Response(response.getStatusCode().value(), response.getHeaders(), stream));
				}
				catch (IOException | RuntimeException ex) {
					// Closing the response would drain the rest of the body first, which may
					// never end (an oversized or endless body): abort it instead.
					closeQuietly(stream);
					throw ex;
				}
			}, true);
		}
		catch (ResourceAccessException ex) {
			IOException cause = (ex.getCause() instanceof IOException io) ? io : new IOException(ex.getMessage(), ex);
			throw (!responded[0] && NotSentException.provesNotSent(cause)) ? new NotSentException(cause) : cause;
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	private static void closeQuietly(InputStream body) {
		try {
			BodyCut.of(body).close();
		}
		catch (IOException ex) {
			// Aborting is all that was wanted.
		}
	}

	/**
	 * Reads one HTTP response.
	 * @param <T> the result
	 */
	@FunctionalInterface
	public interface ResponseReader<T> {

		/**
		 * Reads the response.
		 * @param response the response, open until this method returns
		 * @return the result
		 * @throws IOException if reading fails
		 */
		T read(Response response) throws IOException;

	}

	/**
	 * An HTTP response being read.
	 *
	 * @param status the status code
	 * @param headers the response headers
	 * @param body the body stream; closing it aborts a blocked read (closing the whole
	 * response instead may first drain the body, which never ends on a stalled stream)
	 * @param mediaType the media type of {@code Content-Type} without parameters, lower
	 * case; an empty string when absent
	 */
	public record Response(int status, HttpHeaders headers, InputStream body, String mediaType) {

		/**
		 * A response whose media type is read from its headers, once: every response is asked
		 * what it is more than once.
		 * @param status the status code
		 * @param headers the response headers
		 * @param body the body stream
		 */
		public Response(int status, HttpHeaders headers, InputStream body) {
			this(status, headers, body, mediaTypeOf(headers.getFirst(HttpHeaders.CONTENT_TYPE)));
		}

		/**
		 * A {@code Content-Type} value's media type without parameters, lower case.
		 * @param value the header value, absent for none
		 * @return the media type, or an empty string when absent
		 */
		static String mediaTypeOf(@Nullable String value) {
			if (value == null) {
				return "";
			}
			if (isPlainMediaType(value)) {
				return value; // the common case, as servers write it: nothing to cut or fold
			}
			int semicolon = value.indexOf(';');
			return ((semicolon < 0) ? value : value.substring(0, semicolon)).trim().toLowerCase(java.util.Locale.ROOT);
		}

		/** No parameters, no surrounding space, no capitals: already what mediaTypeOf returns. */
		private static boolean isPlainMediaType(String value) {
			int length = value.length();
			if (length == 0 || value.charAt(0) <= ' ' || value.charAt(length - 1) <= ' ') {
				return false;
			}
			for (int i = 0; i < length; i++) {
				char c = value.charAt(i);
				if (c == ';' || (c >= 'A' && c <= 'Z') || c > 0x7f) {
					return false;
				}
			}
			return true;
		}

		/**
		 * What cuts the body: closing it ends a blocked read at once, and the connection
		 * with it. Apache HttpClient 5 (which Spring Boot picks for a {@code RestClient} when
		 * it is on the class path) drains a body on {@code close()} to reuse its connection,
		 * which never ends on a stalled or endless stream, so its stream is aborted instead.
		 * @return the closeable to hand to a deadline or to whoever stops a listen stream
		 */
		public Closeable cut() {
			return BodyCut.of(this.body);
		}

		/**
		 * Whether the body is an event stream.
		 * @return {@code true} for {@code text/event-stream}
		 */
		public boolean isEventStream() {
			return MediaType.TEXT_EVENT_STREAM_VALUE.equals(mediaType());
		}

		/**
		 * Whether the body is a single JSON value.
		 * @return {@code true} for {@code application/json}
		 */
		public boolean isJson() {
			return MediaType.APPLICATION_JSON_VALUE.equals(mediaType());
		}

	}

}
