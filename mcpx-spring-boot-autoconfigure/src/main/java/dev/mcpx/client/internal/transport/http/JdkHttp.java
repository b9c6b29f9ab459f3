package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.util.CollectionUtils;

/**
 * One blocking exchange on the JDK {@link HttpClient}, on the caller's thread, with a
 * byte-array body: what {@link BlockingJdkRequestFactory} does for a {@code RestClient}, and
 * what {@link HttpLeg} does directly when the client has no {@code RestClient} of the
 * application's to go through.
 */
final class JdkHttp {

	/** The largest rest of a body read to its end on close, so that its connection is kept. */
	private static final long MAX_DRAINED_BYTES = 64 * 1024;

	/**
	 * The largest declared length of a body received whole before {@code send} returns: a
	 * body of a known, small length arrives within the wait for its headers, and the caller
	 * wakes once instead of once for the headers and again for every part of the body.
	 */
	static final long MAX_WHOLE_BODY_BYTES = 64 * 1024;

	private JdkHttp() {
	}

	/**
	 * Sends one request and waits for the response headers.
	 * @param client the client
	 * @param uri the target
	 * @param method the HTTP method
	 * @param headers the request headers; those the JDK client sets itself are left out
	 * @param body the body, empty for none
	 * @return the response, its body open
	 * @throws IOException if the exchange fails; an {@link InterruptedIOException} when the
	 * caller was interrupted (the watchdog's deadline, usually), its interrupt flag set again
	 */
	static HttpResponse<InputStream> send(HttpClient client, URI uri, String method, HttpHeaders headers,
			byte[] body) throws IOException {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri);
		// The map itself: HttpHeaders.forEach builds a case-insensitive name set per call.
		headers.asMultiValueMap().forEach((name, values) -> {
			if (!isRestricted(name)) {
				values.forEach((value) -> request.header(name, value));
			}
		});
		request.method(method, (body.length > 0) ? HttpRequest.BodyPublishers.ofByteArray(body)
				: HttpRequest.BodyPublishers.noBody());
		try {
			// An interrupt ends the wait in send, and a body read later (the JDK's own stream
			// swallows it): interrupting a caller cancels.
			return client.send(request.build(), method.equals("POST") ? JdkHttp::postBody : JdkHttp::body);
		}
		catch (InterruptedException ex) {
			// The watchdog's deadline, usually: the caller's guard clears the flag again.
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("interrupted while waiting for the response");
		}
	}

	/**
	 * Whether the JDK client sets the header itself and refuses it from callers. Asked for
	 * every header of every request: by length first, not through a case-insensitive set.
	 */
	static boolean isRestricted(String name) {
		return switch (name.length()) {
			case 4 -> name.equalsIgnoreCase("host");
			case 6 -> name.equalsIgnoreCase("expect");
			case 7 -> name.equalsIgnoreCase("upgrade");
			case 10 -> name.equalsIgnoreCase("connection");
			case 14 -> name.equalsIgnoreCase("content-length");
			default -> false;
		};
	}

	/**
	 * How a response's body is received: whole, when its declared length is small and it is
	 * not an event stream (which may wait on the client's own answers before it ends);
	 * otherwise as a stream read while it arrives, which an interrupt ends
	 * ({@link InterruptibleBody}).
	 * @param info the response's status and headers
	 * @return the body's subscriber
	 */
	static HttpResponse.BodySubscriber<InputStream> body(HttpResponse.ResponseInfo info) {
		return body(info, false);
	}

	/**
	 * How a POST's response body is received: as {@link #body}, except that an event stream
	 * is handed over with its first bytes, not its headers. Whoever sent a POST waits for what
	 * its stream says (the response, or a server request) and does nothing with the headers
	 * alone, so the caller wakes once for both instead of twice (an event-stream server may
	 * write its headers and its first event apart). Any other body is handed over at its
	 * headers, as before: a body of no declared length that is not a stream (a 202 from a
	 * server that never ends it) is not waited on.
	 * @param info the response's status and headers
	 * @return the body's subscriber
	 */
	static HttpResponse.BodySubscriber<InputStream> postBody(HttpResponse.ResponseInfo info) {
		return body(info, true);
	}

	private static HttpResponse.BodySubscriber<InputStream> body(HttpResponse.ResponseInfo info,
			boolean awaitFirstBytes) {
		Map<String, List<String>> headers = info.headers().map();
		boolean eventStream = isEventStream(headers);
		long length = declaredLength(headers);
		if (length >= 0 && length <= MAX_WHOLE_BODY_BYTES && !eventStream) {
			return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofByteArray(), WholeBody::new);
		}
		return (awaitFirstBytes && eventStream) ? InterruptibleBody.awaitingFirstBytes() : InterruptibleBody.atHeaders();
	}

	/** Read as {@link HttpLeg.Response#isEventStream()} reads it, from the JDK's map. */
	private static boolean isEventStream(Map<String, List<String>> headers) {
		List<String> type = headers.get("Content-Type");
		return MediaType.TEXT_EVENT_STREAM_VALUE
			.equals(HttpLeg.Response.mediaTypeOf((type != null && !type.isEmpty()) ? type.get(0) : null));
	}

	/** The declared length, -1 when absent or not a number; the map itself (see release). */
	private static long declaredLength(Map<String, List<String>> headers) {
		List<String> declared = headers.get("Content-Length");
		if (declared == null || declared.isEmpty()) {
			return -1;
		}
		try {
			return Long.parseLong(declared.get(0));
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	/**
	 * The response headers as Spring's type: a view, not a copy, since the JDK's map is
	 * already read-only and case-insensitive.
	 * @param response the response
	 * @return the headers
	 */
	static HttpHeaders headers(HttpResponse<?> response) {
		return HttpHeaders.readOnlyHttpHeaders(CollectionUtils.toMultiValueMap(response.headers().map()));
	}

	/**
	 * Releases the connection. The JDK client pools a connection only if its body was read
	 * to the end; closing it before the end drops the connection, and the next request pays
	 * for a new one (measured: one call in five, before this). So a body of a small declared
	 * length is read to its end first: it cannot run past its length, and a stall is cut by
	 * the exchange's deadline, which closes the body. A body without a length may never end
	 * (an event stream) and is cut at once.
	 * @param response the response whose body is released
	 */
	static void release(HttpResponse<InputStream> response) {
		InputStream body = response.body();
		try {
			// The map itself: firstValueAsLong streams the values on every call.
			long length = declaredLength(response.headers().map());
			if (length >= 0 && length <= MAX_DRAINED_BYTES) {
				for (long read = 0; read <= length && body.read() != -1; read++) {
					// what the reader left of the body
				}
			}
		}
		catch (IOException ex) {
			// Already closed or broken: closing is all that is left.
		}
		try {
			body.close();
		}
		catch (IOException ex) {
			// Closing only releases the connection.
		}
	}

}
