package dev.mcpx.client.internal.session;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpStreamResumedEvent;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.transport.HttpTransport;
import dev.mcpx.client.internal.transport.NotSentException;
import dev.mcpx.client.internal.transport.SseEvent;
import dev.mcpx.client.internal.transport.SseParser;
import dev.mcpx.client.internal.transport.StreamBrokenException;
import dev.mcpx.client.internal.transport.Watchdog;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One JSON-RPC message exchange over Streamable HTTP: POST a request and read its
 * response, whether it comes as one JSON body or at the end of an event stream, answering
 * the server's own requests and passing on its notifications on the way (2025-11-25
 * transports §Sending Messages to the Server, rules 5–6). Exactly one attempt per call;
 * every failure leaves as a typed {@link McpException}.
 */
public final class JsonRpcExchange {

	private static final Log logger = LogFactory.getLog(JsonRpcExchange.class);

	/** Error bodies are read only far enough to find a JSON-RPC error in them. */
	private static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

	/**
	 * How long a resumed stream may take to replay anything: a server that keeps no events
	 * would otherwise hold the caller until its whole timeout.
	 */
	private static final Duration RESUMPTION_PATIENCE = Duration.ofSeconds(5);

	/** The wait before resuming when the server named no {@code retry:}. */
	private static final long DEFAULT_RESUMPTION_DELAY_MILLIS = 100;

	private static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";

	/** Enough past sessions to cover any error still in flight about them. */
	private static final int MAX_HELD_SESSION_IDS = 8;

	/** Headers whose values are protocol words, not secrets (lower case). */
	private static final Set<String> NOT_SECRET = Set.of("accept", "content-type", "mcp-protocol-version",
			"mcp-method", "mcp-name");

	/** How long a POST event stream may take to end after its response before it is cut. */
	private static final Duration STREAM_END_GRACE = Duration.ofMillis(250);

	/** Bound of a fire-and-forget message such as a cancellation notice. */
	private static final Duration NOTICE_TIMEOUT = Duration.ofSeconds(2);

	private final SessionSettings settings;

	private final HttpTransport transport;

	private final JsonRpc jsonRpc;

	private final Watchdog watchdog;

	private final Executor background;

	private final ServerMessageListener listener;

	private final McpEvents events;

	private final AtomicLong ids = new AtomicLong();

	/** Session ids this client held, newest last: a server's error text may name an old one. */
	private final Deque<String> heldSessionIds = new ArrayDeque<>();

	/**
	 * Creates the exchange of one client.
	 * @param settings the client's settings
	 * @param transport the HTTP transport
	 * @param jsonRpc the message codec
	 * @param watchdog enforces request deadlines
	 * @param background runs cancellation notices
	 * @param listener receives server notifications
	 * @param events hears of resumed streams
	 */
	public JsonRpcExchange(SessionSettings settings, HttpTransport transport, JsonRpc jsonRpc, Watchdog watchdog,
			Executor background, ServerMessageListener listener, McpEvents events) {
		this.settings = settings;
		this.transport = transport;
		this.jsonRpc = jsonRpc;
		this.watchdog = watchdog;
		this.background = background;
		this.listener = listener;
		this.events = events;
	}

	/**
	 * The codec, for building parameters.
	 * @return the codec
	 */
	public JsonRpc jsonRpc() {
		return this.jsonRpc;
	}

	/**
	 * Sends a request and waits for its result. Request ids are unique for the client's
	 * life, so they never repeat within a session (2025-11-25 basic §Requests).
	 * @param method the method
	 * @param params the parameters
	 * @param headers adds the session's headers
	 * @param timeout the bound of this exchange, resumption included
	 * @param options where the eras differ: resumption, cancellation, server requests
	 * @return the response's {@code result}
	 * @throws McpException on any failure
	 */
	public Reply request(String method, @Nullable JsonNode params, Consumer<HttpHeaders> headers, Duration timeout,
			ExchangeOptions options) {
		long id = this.ids.incrementAndGet();
		byte[] body = this.jsonRpc.request(id, method, params);
		Watchdog.Guard guard = this.watchdog.arm(timeout);
		try {
			try {
				return this.transport.post(body, headers,
						(response) -> readResponse(response, id, method, headers, guard, options));
			}
			catch (StreamBrokenException lost) {
				return resume(lost, id, method, headers, guard, options);
			}
		}
		catch (IOException | RuntimeException ex) {
			throw failure(method, id, ex, guard, options.notifyCancellation() ? headers : null);
		}
		finally {
			guard.close();
		}
	}

	/**
	 * Sends a notification and waits for the server to accept it (202).
	 * @param method the method
	 * @param params the parameters
	 * @param headers adds the session's headers
	 * @param timeout the bound of this exchange
	 * @throws McpException on any failure
	 */
	public void notify(String method, @Nullable JsonNode params, Consumer<HttpHeaders> headers, Duration timeout) {
		post(method, this.jsonRpc.notification(method, params), headers, timeout);
	}

	/**
	 * Holds a long-lived notification stream open (a legacy GET, or a modern
	 * {@code subscriptions/listen} POST) and dispatches what arrives until it ends. No
	 * deadline applies; the caller aborts it by closing the stream it is handed.
	 * @param listenRequest the {@code subscriptions/listen} request body, absent for
	 * a GET
	 * @param headers adds the session's headers
	 * @param opened receives the open body, to close it when the stream must end
	 * @param options where the eras differ
	 * @return how the stream ended
	 * @throws McpException if it could not be opened
	 */
	public ListenOutcome listen(@Nullable JsonNode listenRequest, Consumer<HttpHeaders> headers,
			Consumer<java.io.Closeable> opened, ExchangeOptions options) {
		HttpTransport.ResponseReader<ListenOutcome> reader = (response) -> {
			opened.accept(response.body());
			if (response.status() == 404) {
				return ListenOutcome.SESSION_GONE;
			}
			if (response.status() == 405) {
				return ListenOutcome.NOT_OFFERED;
			}
			if (response.status() >= 300) {
				throw statusFailure(response, "listen", headers);
			}
			if (!response.isEventStream()) {
				return ListenOutcome.NOT_OFFERED;
			}
			SseParser parser = new SseParser(response.body(), this.settings.maxMessageBytes());
			try {
				for (SseEvent event = parser.next(); event != null; event = parser.next()) {
					if (!event.hasData()) {
						continue;
					}
					JsonRpcMessage message = decodeEvent(event, "listen");
					if (message instanceof JsonRpcMessage.Response) {
						// 2026-07-28 subscriptions §Graceful Closure: the server ended it.
						return ListenOutcome.ENDED;
					}
					dispatch(message, headers, options);
				}
			}
			catch (IOException ex) {
				return ListenOutcome.BROKEN;
			}
			return ListenOutcome.ENDED;
		};
		try {
			if (listenRequest == null) {
				return this.transport.get(headers, reader);
			}
			byte[] body = this.jsonRpc.request(this.ids.incrementAndGet(), McpMethods.SUBSCRIPTIONS_LISTEN,
					listenRequest);
			return this.transport.post(body, headers, reader);
		}
		catch (IOException ex) {
			return ListenOutcome.BROKEN;
		}
	}

	/**
	 * How a notification stream ended.
	 */
	public enum ListenOutcome {

		/** The stream ended or the server closed it: open it again later. */
		ENDED,

		/** The connection broke: open it again later. */
		BROKEN,

		/** The server offers no such stream (405, or not an event stream). */
		NOT_OFFERED,

		/** The session the stream belonged to is gone (404). */
		SESSION_GONE

	}

	/**
	 * Sends a DELETE, errors ignored.
	 * @param headers adds the session's headers
	 * @param timeout the bound of this exchange
	 * @return the status, or {@code -1} when it failed
	 */
	public int delete(Consumer<HttpHeaders> headers, Duration timeout) {
		try (Watchdog.Guard guard = this.watchdog.arm(timeout)) {
			return this.transport.delete(headers);
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	private void post(String method, byte[] body, Consumer<HttpHeaders> headers, Duration timeout) {
		Watchdog.Guard guard = this.watchdog.arm(timeout);
		try {
			this.transport.post(body, headers, (response) -> {
				guard.attach(response.body());
				if (response.status() >= 300) {
					throw statusFailure(response, method, headers);
				}
				return null;
			});
		}
		catch (IOException | RuntimeException ex) {
			throw failure(method, -1, ex, guard, null);
		}
		finally {
			guard.close();
		}
	}

	private Reply readResponse(HttpTransport.Response response, long id, String method,
			Consumer<HttpHeaders> headers, Watchdog.Guard guard, ExchangeOptions options) throws IOException {
		guard.attach(response.body());
		int status = response.status();
		if (status >= 300) {
			throw statusFailure(response, method, headers);
		}
		if (status == 202 || status == 204) {
			throw new McpProtocolException(upstream(),
					method + " was answered with HTTP " + status + " and no response; a request needs one", null);
		}
		if (response.isJson()) {
			return fromJsonBody(response, id, method, headers);
		}
		if (response.isEventStream()) {
			return fromEventStream(response, id, method, headers, true, options);
		}
		throw new McpProtocolException(upstream(), method + " was answered with content type '" + response.mediaType()
				+ "'; expected application/json or text/event-stream", null);
	}

	private Reply fromJsonBody(HttpTransport.Response response, long id, String method, Consumer<HttpHeaders> headers)
			throws IOException {
		byte[] bytes = readBody(response, method);
		if (bytes.length == 0) {
			throw new StreamBrokenException("the JSON body was empty", null, null, -1);
		}
		JsonNode json;
		try {
			json = this.jsonRpc.parse(bytes);
		}
		catch (UnexpectedEndOfInputException ex) {
			throw new StreamBrokenException("the JSON body ended before the response was complete", ex, null, -1);
		}
		catch (JacksonException ex) {
			throw new McpProtocolException(upstream(), method + " was answered with malformed JSON", ex);
		}
		JsonRpcMessage message = decode(json, method);
		if (message instanceof JsonRpcMessage.Response reply && matches(reply.id(), id)) {
			return toReply(reply, method, response, headers);
		}
		throw new McpProtocolException(upstream(),
				method + " was answered with a JSON body that is not the response to request " + id, null);
	}

	private Reply fromEventStream(HttpTransport.Response response, long id, String method,
			Consumer<HttpHeaders> headers, boolean expectEnd, ExchangeOptions options) throws IOException {
		SseParser parser = new SseParser(response.body(), this.settings.maxMessageBytes());
		long retry = -1;
		while (true) {
			SseEvent event;
			try {
				event = parser.next();
			}
			catch (SseParser.EventTooLargeException ex) {
				throw new McpProtocolException(upstream(), method + "'s event stream: " + ex.getMessage(), null);
			}
			catch (IOException ex) {
				throw new StreamBrokenException("the event stream failed: " + ex.getMessage(), ex,
						parser.lastEventId(), retry);
			}
			if (event == null) {
				throw new StreamBrokenException("the event stream ended before the response", null,
						parser.lastEventId(), retry);
			}
			if (event.retryMillis() >= 0) {
				retry = event.retryMillis();
			}
			if (!event.hasData()) {
				continue; // a priming event: only its id matters, for resumption
			}
			JsonRpcMessage message = decodeEvent(event, method);
			if (message instanceof JsonRpcMessage.Response reply) {
				if (matches(reply.id(), id)) {
					Reply result = toReply(reply, method, response, headers);
					finish(response.body(), expectEnd);
					return result;
				}
				logger.debug("[" + upstream() + "] ignored a response to unknown request id on " + method + "'s stream");
			}
			else {
				dispatch(message, headers, options);
			}
		}
	}

	/**
	 * Resumes a broken event stream with GET and {@code Last-Event-ID}, after waiting what
	 * the server's {@code retry:} asked, until the response arrives, the attempts run out,
	 * or resumption proves impossible (2025-11-25 transports §Resumability and Redelivery;
	 * §Sending Messages rule 6: the client MUST respect {@code retry}).
	 */
	private Reply resume(StreamBrokenException lost, long id, String method, Consumer<HttpHeaders> headers,
			Watchdog.Guard guard, ExchangeOptions options) throws IOException {
		int attempts = options.resumptionAttempts();
		StreamBrokenException last = lost;
		for (int attempt = 1; attempt <= attempts && last.lastEventId() != null && !guard.expired(); attempt++) {
			pause((last.retryMillis() >= 0) ? last.retryMillis() : DEFAULT_RESUMPTION_DELAY_MILLIS);
			String eventId = last.lastEventId();
			long retry = last.retryMillis();
			Watchdog.Guard patience = this.watchdog.arm(RESUMPTION_PATIENCE);
			logger.debug("[" + upstream() + "] resuming " + method + "'s stream (attempt " + attempt + ")");
			try {
				Reply reply = this.transport.get((h) -> {
					headers.accept(h);
					h.set(LAST_EVENT_ID_HEADER, eventId);
				}, (response) -> {
					patience.attach(response.body());
					return readResumed(response, id, method, headers, guard, eventId, retry, options);
				});
				this.events.publish(new McpStreamResumedEvent(upstream(), method, attempt));
				return reply;
			}
			catch (IOException again) {
				if (guard.expired()) {
					throw again;
				}
				if (patience.expired()) {
					// A server that keeps no events holds the GET open and replays nothing.
					throw new StreamBrokenException("resuming replayed nothing within " + RESUMPTION_PATIENCE.toSeconds()
							+ " s: the server keeps no events", again, eventId, retry);
				}
				StreamBrokenException broken = (again instanceof StreamBrokenException b) ? b
						: new StreamBrokenException(again.getMessage(), again, eventId, retry);
				if (broken.sessionGone()) {
					throw broken;
				}
				last = (broken.lastEventId() != null) ? broken
						: new StreamBrokenException(broken.getMessage(), broken, eventId, retry);
			}
			finally {
				patience.close();
			}
		}
		throw last;
	}

	private Reply readResumed(HttpTransport.Response response, long id, String method, Consumer<HttpHeaders> headers,
			Watchdog.Guard guard, String eventId, long retry, ExchangeOptions options) throws IOException {
		guard.attach(response.body());
		if (response.status() == 404) {
			throw new StreamBrokenException("resuming the stream was answered 404: the session is gone", null,
					eventId, retry, true);
		}
		if (response.status() >= 300 || !response.isEventStream()) {
			throw new StreamBrokenException("the server cannot resume the stream (HTTP " + response.status() + ")",
					null, null, retry);
		}
		// A resumed stream is a GET stream: servers may keep it open after the response.
		return fromEventStream(response, id, method, headers, false, options);
	}

	private static void pause(long millis) throws InterruptedIOException {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new InterruptedIOException("interrupted while waiting to resume");
		}
	}

	/**
	 * Ends an event stream whose response has arrived. A POST stream should end right after
	 * its response (2025-11-25 transports §Sending Messages, rule 6), so it is read to its
	 * end for a short grace period, which lets the connection be reused; a stream that
	 * does not end, or a GET stream, is closed, never drained, since draining an endless
	 * stream would hang.
	 */
	private void finish(InputStream body, boolean expectEnd) {
		if (expectEnd) {
			try (Watchdog.Guard grace = this.watchdog.arm(STREAM_END_GRACE)) {
				grace.attach(body);
				byte[] discard = new byte[1024];
				while (body.read(discard) >= 0) {
					// What follows the response is not awaited by anyone.
				}
				return;
			}
			catch (IOException ex) {
				// The grace period ran out or the stream broke: closing below is all that is left.
			}
		}
		try {
			body.close();
		}
		catch (IOException ex) {
			// Closing only releases the connection.
		}
	}

	private JsonRpcMessage decodeEvent(SseEvent event, String method) {
		JsonNode json;
		try {
			json = this.jsonRpc.parse(event.data());
		}
		catch (JacksonException ex) {
			throw new McpProtocolException(upstream(), method + "'s event stream carried malformed JSON", ex);
		}
		return decode(json, method);
	}

	private JsonRpcMessage decode(JsonNode json, String method) {
		try {
			return this.jsonRpc.read(json);
		}
		catch (JsonRpc.MalformedMessageException ex) {
			throw new McpProtocolException(upstream(), method + ": " + ex.getMessage(), null);
		}
	}

	private void dispatch(JsonRpcMessage message, Consumer<HttpHeaders> headers, ExchangeOptions options) {
		if (message instanceof JsonRpcMessage.Notification notification) {
			try {
				this.listener.onNotification(upstream(), notification.method(), notification.params());
			}
			catch (RuntimeException ex) {
				logger.warn("[" + upstream() + "] a notification listener failed on " + notification.method(), ex);
			}
		}
		else if (message instanceof JsonRpcMessage.Request request) {
			if (options.answerServerRequests()) {
				answer(request, headers);
			}
			else {
				// 2026-07-28 §Receiving Messages: servers must not send requests on a stream,
				// and a modern client never sends responses; the request is dropped.
				logger.debug("[" + upstream() + "] ignored a server request (" + request.method()
						+ ") on a modern response stream");
			}
		}
	}

	/**
	 * Answers a request the server sent on a stream: {@code ping} with an empty result,
	 * anything else with method-not-found, since this client declares no capability that
	 * invites server requests (2025-11-25 basic/utilities/ping; basic §Responses).
	 */
	private void answer(JsonRpcMessage.Request request, Consumer<HttpHeaders> headers) {
		byte[] answer = McpMethods.PING.equals(request.method())
				? this.jsonRpc.result(request.id(), this.jsonRpc.object())
				: this.jsonRpc.error(request.id(), McpJsonRpcException.METHOD_NOT_FOUND,
						"Method not found: " + request.method());
		try {
			post("response to " + request.method(), answer, headers, NOTICE_TIMEOUT);
		}
		catch (McpException ex) {
			logger.debug("[" + upstream() + "] could not answer the server's " + request.method() + ": "
					+ ex.getMessage());
		}
	}

	private Reply toReply(JsonRpcMessage.Response reply, String method, HttpTransport.Response response,
			Consumer<HttpHeaders> headers) {
		if (reply.error() != null) {
			throw new McpJsonRpcException(upstream(), method, reply.error().code(),
					Redaction.scrub(reply.error().message(), lazySecrets(headers)), reply.error().data());
		}
		return new Reply(reply.result(), response.headers());
	}

	private McpException statusFailure(HttpTransport.Response response, String method, Consumer<HttpHeaders> headers) {
		Integer code = null;
		String message = null;
		JsonNode data = null;
		try {
			byte[] body = readErrorBody(response);
			JsonNode json = (body.length > 0) ? this.jsonRpc.parse(body) : null;
			JsonNode error = (json != null) ? json.get("error") : null;
			if (error != null && error.path("code").isIntegralNumber()) {
				code = error.get("code").intValue();
				message = Redaction.scrub(error.path("message").asString(""), lazySecrets(headers));
				data = error.get("data");
			}
		}
		catch (IOException | JacksonException ex) {
			// The status alone is the answer; the body was only a hint.
		}
		if (response.status() == 401 || response.status() == 403) {
			return new McpAuthenticationException(upstream(), method, response.status(), null);
		}
		return new McpHttpStatusException(upstream(), method, response.status(), code, message, data);
	}

	private McpException failure(String method, long id, Exception ex, Watchdog.Guard guard,
			Consumer<HttpHeaders> headers) {
		if (guard.expired()) {
			if (id > 0 && headers != null && !McpMethods.INITIALIZE.equals(method)) {
				sendCancelled(id, guard.timeout(), headers);
			}
			return new McpTimeoutException(upstream(), method, guard.timeout());
		}
		if (ex instanceof McpException mcp) {
			return mcp;
		}
		if (Thread.currentThread().isInterrupted()) {
			return new McpTransportException(upstream(), method + " was interrupted", ex);
		}
		if (ex instanceof NotSentException) {
			URI endpoint = this.transport.endpoint();
			String authority = endpoint.getHost() + ((endpoint.getPort() >= 0) ? ":" + endpoint.getPort() : "");
			return new McpTransportException(upstream(), "could not reach " + authority + " (" + unreachable(ex)
					+ "); " + method + " was not sent", ex);
		}
		if (ex instanceof StreamBrokenException broken) {
			return new McpStreamLostException(upstream(), method,
					method + "'s response was lost: " + broken.getMessage(), ex, broken.lastEventId(),
					broken.retryMillis(), broken.sessionGone());
		}
		if (ex instanceof IOException) {
			return new McpStreamLostException(upstream(), method,
					method + "'s exchange failed before its response: " + describe(ex), ex);
		}
		return new McpException(upstream(), method + " failed: " + ex, ex);
	}

	/**
	 * Tells the server to stop working on a request the client gave up on (2025-11-25
	 * basic/utilities/cancellation), off the caller's thread.
	 */
	private void sendCancelled(long id, Duration timeout, Consumer<HttpHeaders> headers) {
		ObjectNode params = this.jsonRpc.object();
		params.put("requestId", id);
		params.put("reason", "timed out after " + timeout.toMillis() + " ms");
		this.background.execute(() -> {
			try {
				notify(McpMethods.CANCELLED, params, headers, NOTICE_TIMEOUT);
			}
			catch (McpException ex) {
				logger.debug("[" + upstream() + "] cancellation notice not delivered: " + ex.getMessage());
			}
		});
	}

	/**
	 * Records a session id the client was given, so that error text naming it, even after
	 * the session is gone, is scrubbed.
	 * @param sessionId the session id
	 */
	public void remember(String sessionId) {
		synchronized (this.heldSessionIds) {
			this.heldSessionIds.addLast(sessionId);
			while (this.heldSessionIds.size() > MAX_HELD_SESSION_IDS) {
				this.heldSessionIds.removeFirst();
			}
		}
	}

	/** The secrets, gathered only if some text is long enough to hold one. */
	private Iterable<String> lazySecrets(Consumer<HttpHeaders> headers) {
		return () -> secrets(headers).iterator();
	}

	/**
	 * The values this client sent that a server's error text must not repeat: every header
	 * value except those that mirror the request body or describe the protocol, and the
	 * session ids it held.
	 */
	private List<String> secrets(Consumer<HttpHeaders> headers) {
		HttpHeaders sent = new HttpHeaders();
		headers.accept(sent);
		List<String> secrets = new ArrayList<>();
		sent.forEach((name, values) -> {
			if (!NOT_SECRET.contains(name.toLowerCase(java.util.Locale.ROOT))
					&& !name.regionMatches(true, 0, "Mcp-Param-", 0, 10)) {
				secrets.addAll(values);
			}
		});
		synchronized (this.heldSessionIds) {
			secrets.addAll(this.heldSessionIds);
		}
		return secrets;
	}

	/** Why a connection could not be made, in the words an operator searches for. */
	private static String unreachable(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof java.net.ConnectException) {
				return "connection refused";
			}
			if (t instanceof java.net.UnknownHostException || t instanceof java.nio.channels.UnresolvedAddressException) {
				return "unknown host";
			}
			if (t instanceof java.net.NoRouteToHostException) {
				return "no route to host";
			}
		}
		return describe(failure);
	}

	/** The innermost message of an I/O failure: the JDK often leaves the outer one empty. */
	private static String describe(Throwable failure) {
		String description = failure.getClass().getSimpleName();
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t.getMessage() != null && !t.getMessage().isBlank()) {
				description = t.getMessage();
			}
			else if (t.getCause() == null) {
				description = t.getClass().getSimpleName();
			}
		}
		return description;
	}

	private static boolean matches(JsonNode replyId, long id) {
		if (replyId.isIntegralNumber()) {
			return replyId.longValue() == id;
		}
		return replyId.isString() && replyId.stringValue().equals(Long.toString(id));
	}

	/**
	 * The whole body, bounded: exactly {@code Content-Length} bytes when the server gave it
	 * (no scratch buffer per response), else read up to the bound.
	 */
	private byte[] readBody(HttpTransport.Response response, String method) throws IOException {
		int max = this.settings.maxMessageBytes();
		long length = response.headers().getContentLength();
		if (length > max) {
			throw new McpProtocolException(upstream(),
					method + "'s response exceeded the limit of " + max + " bytes", null);
		}
		if (length >= 0) {
			byte[] bytes = response.body().readNBytes((int) length);
			if (bytes.length < length) {
				throw new StreamBrokenException("the JSON body ended after " + bytes.length + " of " + length
						+ " bytes", null, null, -1);
			}
			return bytes;
		}
		return readBounded(response.body(), max, method);
	}

	/**
	 * An error body, only as far as it may hold a JSON-RPC error: exactly
	 * {@code Content-Length} bytes when it is given and small enough (no scratch buffer).
	 */
	private static byte[] readErrorBody(HttpTransport.Response response) throws IOException {
		long length = response.headers().getContentLength();
		if (length < 0 || length >= MAX_ERROR_BODY_BYTES) {
			return response.body().readNBytes(MAX_ERROR_BODY_BYTES);
		}
		byte[] body = response.body().readNBytes((int) length);
		// Seeing the end lets the HTTP client keep the connection: the failure that follows
		// aborts the body, and an aborted body that was not seen to end costs its connection.
		response.body().read();
		return body;
	}

	private byte[] readBounded(InputStream body, int max, String method) throws IOException {
		byte[] bytes = body.readNBytes(max + 1);
		if (bytes.length > max) {
			throw new McpProtocolException(upstream(),
					method + "'s response exceeded the limit of " + max + " bytes", null);
		}
		return bytes;
	}

	private String upstream() {
		return this.settings.upstream();
	}

	/**
	 * The result of a request, with the headers of the response that carried it.
	 *
	 * @param result the {@code result} member
	 * @param headers the HTTP response headers
	 */
	public record Reply(JsonNode result, HttpHeaders headers) {
	}

}
