package dev.mcpx.client.internal.transport.http;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.internal.transport.NotSentException;

/**
 * The exchanges with one MCP endpoint, one per call, on the caller's thread, in one of two
 * ways: through the application's {@link RestClient} ({@link RestClientLeg}: its request
 * factory, interceptors and observation apply), or, when the client was built without one,
 * straight on the JDK {@link java.net.http.HttpClient} ({@link JdkLeg}, see
 * {@link JdkHttp}), which sends the same request without the pipeline nothing uses then.
 * The response is handed to a reader while open. A leg knows HTTP, not MCP:
 * {@link HttpTransport} decides which headers go out and what a status means. Each call
 * makes exactly one attempt. Sealed, with two final implementations, so that a call site
 * sees at most two receivers (docs/architecture.md, "HTTP clients and the hot path").
 */
public sealed interface HttpLeg extends AutoCloseable permits RestClientLeg, JdkLeg {

	/** 2025-11-25 transports §Sending Messages, rule 2: both types, always. */
	String ACCEPT_POST = "application/json, text/event-stream";

	/**
	 * The exchanges with one MCP endpoint through a {@link RestClient}.
	 * @param restClient supplies the client that performs the exchanges, on every exchange (it
	 * may build it on the first)
	 * @param endpoint the MCP endpoint URL
	 * @return the exchanges
	 */
	static HttpLeg throughRestClient(Supplier<RestClient> restClient, URI endpoint) {
		return new RestClientLeg(restClient, endpoint);
	}

	/**
	 * The exchanges with one MCP endpoint straight on a JDK client, without a
	 * {@link RestClient} (no application HTTP settings to apply): the same requests, answers
	 * and failures as through a {@code RestClient} on {@link BlockingJdkRequestFactory}.
	 * @param jdkClient the lease on the JDK client, built on first use and possibly shared
	 * with other upstreams ({@link SharedHttpClients}); the leg returns it when closed
	 * @param endpoint the MCP endpoint URL
	 * @return the exchanges
	 */
	static HttpLeg direct(SharedHttpClients.Lease jdkClient, URI endpoint) {
		return new JdkLeg(jdkClient, endpoint);
	}

	/**
	 * The MCP endpoint.
	 * @return the URL
	 */
	URI endpoint();

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
	default <T> T post(byte[] json, Consumer<HttpHeaders> headers, ResponseReader<T> reader) throws IOException {
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
	default <T> T get(Consumer<HttpHeaders> headers, ResponseReader<T> reader) throws IOException {
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
	default int delete(Consumer<HttpHeaders> headers) throws IOException {
		return exchange(HttpMethod.DELETE, null, headers, Response::status);
	}

	/**
	 * One exchange with the endpoint, the request's headers as given: a request provably
	 * never sent fails with {@link NotSentException}; a body whose reader fails is cut, never
	 * drained ({@link BodyCut}); the response is released after the reader returns.
	 * @param <T> the reader's result
	 * @param method the HTTP method
	 * @param body the request body, absent for none
	 * @param headers adds every request header
	 * @param reader reads the response
	 * @return what the reader returned
	 * @throws IOException if the exchange fails
	 */
	<T> T exchange(HttpMethod method, byte @Nullable [] body, Consumer<HttpHeaders> headers,
			ResponseReader<T> reader) throws IOException;

	/** Releases what the leg holds of its HTTP client (a lease on a shared one). */
	@Override
	void close();

	/**
	 * Reads one HTTP response.
	 * @param <T> the result
	 */
	@FunctionalInterface
	interface ResponseReader<T> {

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
	record Response(int status, HttpHeaders headers, InputStream body, String mediaType) {

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
