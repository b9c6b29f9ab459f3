package dev.mcpx.client.internal.transport.http;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.transport.Envelope;
import dev.mcpx.client.internal.transport.InboundMessages;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.McpTransport;
import dev.mcpx.client.internal.transport.Received;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.internal.transport.SessionGoneException;
import dev.mcpx.client.internal.transport.StreamBrokenException;
import dev.mcpx.client.internal.transport.Watchdog;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.JsonNode;

/**
 * The Streamable HTTP transport (2025-11-25 basic/transports §Streamable HTTP; 2026-07-28
 * transports/streamable-http): every message is a POST, its response one JSON body or an
 * event stream; the listen stream is a GET (or a modern {@code subscriptions/listen} POST);
 * a broken event stream is resumed with a GET and {@code Last-Event-ID}; a session ends
 * with a DELETE. Status codes, headers and event streams end here: above this class, a
 * 404 on a session is a {@link SessionGoneException}, a 401 an
 * {@link McpAuthenticationException}, a cut stream a {@link StreamBrokenException}.
 */
public final class HttpTransport implements McpTransport {

	private static final Log logger = LogFactory.getLog(HttpTransport.class);

	/**
	 * How long a resumed stream may take to replay anything: a server that keeps no events
	 * would otherwise hold the caller until its whole timeout.
	 */
	static final Duration RESUMPTION_PATIENCE = Duration.ofSeconds(5);

	/** How long a POST event stream may take to end after its response before it is cut. */
	private static final Duration STREAM_END_GRACE = Duration.ofMillis(250);

	private static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";

	private static final String SESSION_ID_HEADER = "MCP-Session-Id";

	private static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";

	/** Headers whose values are protocol words, not secrets (lower case). */
	private static final Set<String> NOT_SECRET = Set.of("accept", "content-type", "mcp-protocol-version",
			"mcp-method", "mcp-name");

	private final String upstream;

	private final HttpLeg leg;

	private final Consumer<HttpHeaders> baseHeaders;

	private final JsonRpc jsonRpc;

	private final Watchdog watchdog;

	private final BoundedBody bodies;

	private final Refusals refusals;

	/**
	 * Creates the transport of one client.
	 * @param settings what the transport is told of its upstream
	 * @param leg makes the HTTP exchanges; closed with the transport
	 * @param jsonRpc the message codec
	 * @param watchdog enforces the transport's own bounds (resumption patience, stream end)
	 * @param redaction scrubs secrets from the server's error text
	 */
	public HttpTransport(Settings settings, HttpLeg leg, JsonRpc jsonRpc, Watchdog watchdog, Redaction redaction) {
		this.upstream = settings.upstream();
		this.leg = leg;
		this.baseHeaders = settings.baseHeaders();
		this.jsonRpc = jsonRpc;
		this.watchdog = watchdog;
		this.bodies = new BoundedBody(settings.upstream(), settings.maxMessageBytes());
		this.refusals = new Refusals(settings.upstream(), leg.endpoint(), jsonRpc, redaction,
				settings.expiryOnBadRequest(), this::secrets);
	}

	/** Each message is its own exchange: there is no channel to open. */
	@Override
	public void open(long generation) {
	}

	@Override
	public Received request(long id, byte[] message, Envelope envelope, InboundMessages inbound,
			Watchdog.Guard deadline) throws IOException {
		return this.leg.post(message, headers(envelope), (response) -> {
			deadline.attach(response.cut());
			int status = response.status();
			if (status >= 300) {
				throw this.refusals.ofRequest(response, envelope);
			}
			if (status == 202 || status == 204) {
				throw new McpProtocolException(this.upstream, envelope.method() + " was answered with HTTP " + status
						+ " and no response; a request needs one", null);
			}
			String sessionId = response.headers().getFirst(SESSION_ID_HEADER);
			if (response.isJson()) {
				return new Received(fromJsonBody(response, id, envelope.method()), sessionId);
			}
			if (response.isEventStream()) {
				String session = (envelope.sessionId() != null) ? envelope.sessionId() : sessionId;
				return new Received(fromEventStream(response, id, envelope.method(), session, inbound, true),
						sessionId);
			}
			throw new McpProtocolException(this.upstream, envelope.method() + " was answered with content type '"
					+ response.mediaType() + "'; expected application/json or text/event-stream", null);
		});
	}

	/**
	 * A GET with {@code Last-Event-ID}, whose stream the server replays from there
	 * (2025-11-25 basic/transports §Resumability and Redelivery). A failure says where to
	 * resume from next: where the new stream broke, or where this attempt started; nowhere
	 * when the session is gone or the server replayed nothing within
	 * {@link #RESUMPTION_PATIENCE}.
	 */
	@Override
	public Received resume(Resumption from, Envelope envelope, InboundMessages inbound, Watchdog.Guard deadline)
			throws IOException {
		Watchdog.Guard patience = this.watchdog.arm(RESUMPTION_PATIENCE);
		try {
			return this.leg.get((h) -> {
				headers(envelope).accept(h);
				h.set(LAST_EVENT_ID_HEADER, from.lastEventId());
			}, (response) -> {
				patience.attach(response.cut());
				deadline.attach(response.cut());
				if (response.status() == 404) {
					throw new StreamBrokenException("resuming the stream was answered 404: the session is gone", null,
							from, true);
				}
				if (response.status() >= 300 || !response.isEventStream()) {
					throw new StreamBrokenException(
							"the server cannot resume the stream (HTTP " + response.status() + ")", null, from);
				}
				// A resumed stream is a GET stream: servers may keep it open after the response.
				return new Received(fromEventStream(response, from.requestId(), envelope.method(),
						envelope.sessionId(), inbound, false),
						null);
			});
		}
		catch (IOException again) {
			if (deadline.expired()) {
				throw again;
			}
			if (patience.expired()) {
				// A server that keeps no events holds the GET open and replays nothing.
				throw new StreamBrokenException("resuming replayed nothing within " + RESUMPTION_PATIENCE.toSeconds()
						+ " s: the server keeps no events", again, null);
			}
			if (again instanceof StreamBrokenException broken
					&& (broken.sessionGone() || broken.resumption() != null || broken.notResumable() != null)) {
				throw broken;
			}
			throw new StreamBrokenException(again.getMessage(), again, from);
		}
		finally {
			patience.close();
		}
	}

	@Override
	public void send(byte[] message, Envelope envelope, Watchdog.Guard deadline) throws IOException {
		this.leg.post(message, headers(envelope), (response) -> {
			deadline.attach(response.cut());
			if (response.status() >= 300) {
				throw this.refusals.of(response, envelope);
			}
			return response.status(); // unused: what a send brings comes on a stream
		});
	}

	@Override
	public ListenOutcome listen(byte @Nullable [] listenRequest, Envelope envelope, InboundMessages inbound,
			Consumer<Closeable> opened) throws IOException {
		HttpLeg.ResponseReader<ListenOutcome> reader = (response) -> {
			opened.accept(response.cut());
			if (response.status() == 404) {
				return ListenOutcome.SESSION_GONE;
			}
			if (response.status() == 405) {
				return ListenOutcome.NOT_OFFERED;
			}
			if (response.status() >= 300) {
				throw this.refusals.of(response, envelope);
			}
			if (!response.isEventStream()) {
				return ListenOutcome.NOT_OFFERED;
			}
			SseParser parser = new SseParser(response.body(), this.bodies.maxMessageBytes());
			try {
				for (SseEvent event = parser.next(); event != null; event = parser.next()) {
					if (!event.hasData()) {
						continue;
					}
					JsonRpcMessage message = decode(event, "listen");
					if (message instanceof JsonRpcMessage.Response) {
						// 2026-07-28 subscriptions §Graceful Closure: the server ended it.
						return ListenOutcome.ENDED;
					}
					inbound.receive(message);
				}
			}
			catch (IOException ex) {
				return ListenOutcome.BROKEN;
			}
			return ListenOutcome.ENDED;
		};
		try {
			return (listenRequest != null) ? this.leg.post(listenRequest, headers(envelope), reader)
					: this.leg.get(headers(envelope), reader);
		}
		catch (IOException ex) {
			return ListenOutcome.BROKEN;
		}
	}

	@Override
	public int end(Envelope envelope, Watchdog.Guard deadline) {
		try {
			return this.leg.delete(headers(envelope));
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

	/**
	 * The values of the headers this client sends, except those that mirror the request
	 * body or describe the protocol.
	 */
	@Override
	public Iterable<String> secrets(Envelope envelope) {
		return secrets(this.baseHeaders, envelope);
	}

	/** The secrets of a message with these headers (those of {@link ReplicatedTransport}'s instances too). */
	static Iterable<String> secrets(Consumer<HttpHeaders> baseHeaders, Envelope envelope) {
		HttpHeaders sent = new HttpHeaders();
		headers(baseHeaders, envelope).accept(sent);
		List<String> secrets = new ArrayList<>();
		// The map itself: HttpHeaders.forEach builds a case-insensitive name set per call.
		sent.asMultiValueMap().forEach((name, values) -> {
			if (!NOT_SECRET.contains(name.toLowerCase(Locale.ROOT))
					&& !name.regionMatches(true, 0, "Mcp-Param-", 0, 10)) {
				secrets.addAll(values);
			}
		});
		return secrets;
	}

	@Override
	public String destination() {
		URI endpoint = this.leg.endpoint();
		return endpoint.getHost() + ((endpoint.getPort() >= 0) ? ":" + endpoint.getPort() : "");
	}

	@Override
	public void close() {
		this.leg.close();
	}

	/**
	 * The headers of a message: those of every message, then the session's (2025-11-25
	 * basic/transports §Session Management, rule 2; §Protocol Version Header), then the
	 * metadata mirrored from the body.
	 */
	private Consumer<HttpHeaders> headers(Envelope envelope) {
		return headers(this.baseHeaders, envelope);
	}

	private static Consumer<HttpHeaders> headers(Consumer<HttpHeaders> baseHeaders, Envelope envelope) {
		return (h) -> {
			baseHeaders.accept(h);
			if (envelope.sessionId() != null) {
				h.set(SESSION_ID_HEADER, envelope.sessionId());
			}
			if (envelope.protocolVersion() != null) {
				h.set(PROTOCOL_VERSION_HEADER, envelope.protocolVersion());
			}
			envelope.mirrored().forEach(h::set);
		};
	}

	private JsonRpcMessage.Response fromJsonBody(HttpLeg.Response response, long id, String method)
			throws IOException {
		byte[] bytes = this.bodies.read(response, method);
		if (bytes.length == 0) {
			if ("0".equals(response.headers().getFirst(HttpHeaders.CONTENT_LENGTH))) {
				// Declared empty, so nothing was lost: the server answered without a response.
				throw new McpProtocolException(this.upstream, method + " was answered with an empty body; a request "
						+ "needs a response", null);
			}
			throw new StreamBrokenException("the JSON body was empty", null, null);
		}
		JsonRpcMessage message;
		try {
			message = this.jsonRpc.decode(bytes);
		}
		catch (UnexpectedEndOfInputException ex) {
			throw new StreamBrokenException("the JSON body ended before the response was complete", ex, null);
		}
		catch (JacksonException ex) {
			throw new McpProtocolException(this.upstream, method + " was answered with malformed JSON", ex);
		}
		catch (JsonRpc.MalformedMessageException ex) {
			throw malformed(method, ex);
		}
		if (message instanceof JsonRpcMessage.Response reply && matches(reply.id(), id)) {
			return reply;
		}
		throw new McpProtocolException(this.upstream,
				method + " was answered with a JSON body that is not the response to request " + id, null);
	}

	private JsonRpcMessage.Response fromEventStream(HttpLeg.Response response, long id, String method,
			@Nullable String sessionId, InboundMessages inbound, boolean expectEnd) throws IOException {
		SseParser parser = new SseParser(response.body(), this.bodies.maxMessageBytes());
		long retry = -1;
		boolean namedBySession = false;
		while (true) {
			SseEvent event;
			try {
				event = parser.next();
			}
			catch (SseParser.EventTooLargeException ex) {
				throw new McpProtocolException(this.upstream, method + "'s event stream: " + ex.getMessage(), null);
			}
			catch (IOException ex) {
				throw BrokenStreams.of("the event stream failed: " + ex.getMessage(), ex, id, parser, retry,
						namedBySession || BrokenStreams.named(parser.lastIdField(), sessionId));
			}
			if (event == null) {
				throw BrokenStreams.of("the event stream ended before the response", null, id, parser, retry,
						namedBySession || BrokenStreams.named(parser.lastIdField(), sessionId));
			}
			namedBySession = namedBySession || BrokenStreams.named(event.id(), sessionId);
			if (event.retryMillis() >= 0) {
				retry = event.retryMillis();
			}
			if (!event.hasData()) {
				continue; // a priming event: only its id matters, for resumption
			}
			JsonRpcMessage message = decode(event, method);
			if (message instanceof JsonRpcMessage.Response reply) {
				if (matches(reply.id(), id)) {
					finish(response.body(), expectEnd);
					return reply;
				}
				logger.debug("[" + this.upstream + "] ignored a response to unknown request id on " + method
						+ "'s stream");
			}
			else {
				inbound.receive(message);
			}
		}
	}

	/**
	 * Ends an event stream whose response has arrived. A POST stream should end right after
	 * its response (2025-11-25 basic/transports §Sending Messages, rule 6), so it is read to
	 * its end for a short grace period, which lets the connection be reused; a stream that
	 * does not end, or a GET stream, is closed, never drained, since draining an endless
	 * stream would hang.
	 */
	private void finish(InputStream body, boolean expectEnd) {
		if (expectEnd) {
			try (Watchdog.Guard grace = this.watchdog.arm(STREAM_END_GRACE)) {
				grace.attach(BodyCut.of(body));
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
			BodyCut.of(body).close();
		}
		catch (IOException ex) {
			// Closing only releases the connection.
		}
	}

	private JsonRpcMessage decode(SseEvent event, String method) {
		try {
			return this.jsonRpc.decode(event.data());
		}
		catch (JacksonException ex) {
			throw new McpProtocolException(this.upstream, method + "'s event stream carried malformed JSON", ex);
		}
		catch (JsonRpc.MalformedMessageException ex) {
			throw malformed(method, ex);
		}
	}

	private McpProtocolException malformed(String method, JsonRpc.MalformedMessageException ex) {
		return new McpProtocolException(this.upstream, method + ": " + ex.getMessage(), null);
	}

	private static boolean matches(JsonNode replyId, long id) {
		if (replyId.isIntegralNumber()) {
			return replyId.longValue() == id;
		}
		return replyId.isString() && replyId.stringValue().equals(Long.toString(id));
	}

	/**
	 * What the transport of one client is told of its upstream.
	 *
	 * @param upstream the upstream name
	 * @param baseHeaders adds the headers every message carries (authorization, custom)
	 * @param maxMessageBytes the largest message accepted
	 * @param expiryOnBadRequest whether a 400 naming the session shows it gone, as some
	 * widely deployed servers answer a forgotten session so
	 */
	public record Settings(String upstream, Consumer<HttpHeaders> baseHeaders, int maxMessageBytes,
			boolean expiryOnBadRequest) {
	}

}
