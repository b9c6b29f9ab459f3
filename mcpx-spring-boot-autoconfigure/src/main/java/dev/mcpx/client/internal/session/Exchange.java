package dev.mcpx.client.internal.session;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.transport.Envelope;
import dev.mcpx.client.internal.transport.InboundMessages;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.McpTransport;
import dev.mcpx.client.internal.transport.Received;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.internal.transport.Watchdog;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One JSON-RPC exchange over the client's transport: a request and its response, a
 * notification, a resumption, a listen stream. It numbers requests, bounds each exchange
 * by its deadline, routes what arrives on the way (notifications to the listener, server
 * requests to {@link ServerRequests}, answered the way they came), and leaves every
 * failure as a typed {@link McpException}. Exactly one attempt per call.
 */
public final class Exchange {

	private static final Log logger = LogFactory.getLog(Exchange.class);

	/** Bound of a fire-and-forget message such as a cancellation notice. */
	private static final Duration NOTICE_TIMEOUT = Duration.ofSeconds(2);

	private final String upstream;

	private final McpTransport transport;

	private final JsonRpc jsonRpc;

	private final Watchdog watchdog;

	private final Executor background;

	private final ServerMessageListener listener;

	private final ServerRequests serverRequests;

	private final Redaction redaction;

	private final Failures failures;

	private final ProgressRoutes progress;

	private final AtomicLong ids = new AtomicLong();

	/**
	 * Creates the exchange of one client.
	 * @param upstream the upstream name
	 * @param transport moves the messages
	 * @param jsonRpc the message codec
	 * @param watchdog enforces request deadlines
	 * @param background runs cancellation notices
	 * @param listener receives server notifications
	 * @param serverRequests answers server requests
	 * @param redaction scrubs secrets from the server's error text
	 */
	public Exchange(String upstream, McpTransport transport, JsonRpc jsonRpc, Watchdog watchdog, Executor background,
			ServerMessageListener listener, ServerRequests serverRequests, Redaction redaction) {
		this(upstream, transport, jsonRpc, watchdog, background, listener, serverRequests, redaction,
				new ProgressRoutes(upstream));
	}

	/**
	 * Creates the exchange of one client.
	 * @param upstream the upstream name
	 * @param transport moves the messages
	 * @param jsonRpc the message codec
	 * @param watchdog enforces request deadlines
	 * @param background runs cancellation notices
	 * @param listener receives server notifications
	 * @param serverRequests answers server requests
	 * @param redaction scrubs secrets from the server's error text
	 * @param progress routes progress notifications to their calls
	 */
	public Exchange(String upstream, McpTransport transport, JsonRpc jsonRpc, Watchdog watchdog, Executor background,
			ServerMessageListener listener, ServerRequests serverRequests, Redaction redaction,
			ProgressRoutes progress) {
		this.progress = progress;
		this.upstream = upstream;
		this.transport = transport;
		this.jsonRpc = jsonRpc;
		this.watchdog = watchdog;
		this.background = background;
		this.listener = listener;
		this.serverRequests = serverRequests;
		this.redaction = redaction;
		this.failures = new Failures(upstream, transport.destination());
	}

	/**
	 * The codec, for building parameters.
	 * @return the codec
	 */
	public JsonRpc jsonRpc() {
		return this.jsonRpc;
	}

	/**
	 * The redaction of this client, which remembers the session ids it was given.
	 * @return the redaction
	 */
	public Redaction redaction() {
		return this.redaction;
	}

	/**
	 * The capabilities the client declares in a handshake, as the answers to server
	 * requests define them.
	 * @return the client capabilities
	 */
	public ObjectNode clientCapabilities() {
		return this.serverRequests.clientCapabilities();
	}

	/**
	 * Makes the transport's channel of a session generation ready.
	 * @param generation the generation about to be opened
	 * @param timeout the bound of opening it
	 * @throws McpException if it cannot be opened
	 */
	public void open(long generation, Duration timeout) {
		try (Watchdog.Guard guard = this.watchdog.arm(timeout)) {
			this.transport.open(generation);
		}
		catch (IOException | RuntimeException ex) {
			throw this.failures.translate(McpMethods.INITIALIZE, ex, false);
		}
	}

	/**
	 * Sends a request and waits for its result. Request ids are unique for the client's
	 * life, so they never repeat within a session (2025-11-25 basic §Requests).
	 * @param method the method
	 * @param params the parameters
	 * @param envelope what the request carries besides its JSON
	 * @param timeout the bound of this exchange
	 * @param options where the eras differ
	 * @return the response's {@code result}
	 * @throws McpException on any failure; a lost stream as {@link StreamLost}
	 */
	public Reply request(String method, @Nullable JsonNode params, Envelope envelope, Duration timeout,
			ExchangeOptions options) {
		if (Thread.currentThread().isInterrupted()) {
			// Interrupted before anything was sent: nothing to tell the server.
			throw new McpCancelledException(this.upstream, method, null);
		}
		long id = this.ids.incrementAndGet();
		byte[] body = this.jsonRpc.request(id, method, params);
		Watchdog.Guard guard = this.watchdog.arm(timeout);
		ProgressRoutes.Route route = this.progress.of(params);
		if (route != null) {
			route.attach(guard);
		}
		try {
			return reply(this.transport.request(id, body, envelope, inbound(envelope, options), guard), envelope);
		}
		catch (IOException | RuntimeException ex) {
			throw failure(method, id, ex, guard, timeout, envelope, options);
		}
		finally {
			if (route != null) {
				route.detach(guard);
			}
			guard.close();
		}
	}

	/**
	 * Reads on from where a request's response stream broke, within what is left of the
	 * request's timeout.
	 * @param from where the stream broke
	 * @param envelope the request's envelope
	 * @param timeout the request's timeout, as a timeout reports it
	 * @param remaining what is left of it
	 * @param options where the eras differ
	 * @return the response's {@code result}
	 * @throws McpException on any failure; a stream that broke again as {@link StreamLost}
	 */
	public Reply resume(Resumption from, Envelope envelope, Duration timeout, Duration remaining,
			ExchangeOptions options) {
		return resume(from, null, envelope, timeout, remaining, options);
	}

	/**
	 * Reads on from where a request's response stream broke, within what is left of the
	 * request's timeout; the request's progress keeps reaching its caller.
	 * @param from where the stream broke
	 * @param params the request's parameters, which name its progress token
	 * @param envelope the request's envelope
	 * @param timeout the request's timeout, as a timeout reports it
	 * @param remaining what is left of it
	 * @param options where the eras differ
	 * @return the response's {@code result}
	 * @throws McpException on any failure; a stream that broke again as {@link StreamLost}
	 */
	public Reply resume(Resumption from, @Nullable JsonNode params, Envelope envelope, Duration timeout,
			Duration remaining, ExchangeOptions options) {
		if (remaining.isZero() || remaining.isNegative()) {
			throw timedOut(envelope.method(), from.requestId(), timeout, envelope, options);
		}
		Watchdog.Guard guard = this.watchdog.arm(remaining);
		ProgressRoutes.Route route = this.progress.of(params);
		if (route != null) {
			route.attach(guard);
		}
		try {
			return reply(this.transport.resume(from, envelope, inbound(envelope, options), guard), envelope);
		}
		catch (IOException | RuntimeException ex) {
			throw failure(envelope.method(), from.requestId(), ex, guard, timeout, envelope, options);
		}
		finally {
			if (route != null) {
				route.detach(guard);
			}
			guard.close();
		}
	}

	/**
	 * Sends a notification and waits for the upstream to take it.
	 * @param method the method
	 * @param params the parameters
	 * @param envelope what the notification carries besides its JSON
	 * @param timeout the bound of this exchange
	 * @throws McpException on any failure
	 */
	public void notify(String method, @Nullable JsonNode params, Envelope envelope, Duration timeout) {
		send(method, this.jsonRpc.notification(method, params), envelope, timeout);
	}

	/**
	 * Holds the upstream's stream of unsolicited messages open and routes what arrives until
	 * it ends.
	 * @param listenRequest the parameters of a {@code subscriptions/listen} request, absent
	 * where the transport has a stream of its own (a legacy GET)
	 * @param envelope what the stream's request carries besides its JSON
	 * @param opened receives what to close to end the stream
	 * @param options where the eras differ
	 * @return how the stream ended
	 */
	public ListenOutcome listen(@Nullable JsonNode listenRequest, Envelope envelope, Consumer<Closeable> opened,
			ExchangeOptions options) {
		long id = this.ids.incrementAndGet();
		byte[] body = (listenRequest != null) ? this.jsonRpc.request(id, McpMethods.SUBSCRIPTIONS_LISTEN, listenRequest)
				: null;
		// 2026-07-28 basic/patterns/subscriptions §Cancellation: where closing the stream does not
		// end a subscription (stdio), the client cancels its subscriptions/listen request.
		Consumer<Closeable> closing = (body == null || this.transport.cancelsByClosing()) ? opened
				: (stream) -> opened.accept(() -> {
					stream.close();
					sendCancelled(id, "the client closed the subscription", envelope);
				});
		try {
			return this.transport.listen(body, envelope, inbound(envelope, options), closing);
		}
		catch (IOException ex) {
			return ListenOutcome.BROKEN;
		}
	}

	/**
	 * Ends a session's channel, bounded, errors ignored.
	 * @param envelope the session's envelope
	 * @param timeout the bound
	 * @return a status for the log, {@code -1} when it failed
	 */
	public int end(Envelope envelope, Duration timeout) {
		try (Watchdog.Guard guard = this.watchdog.arm(timeout)) {
			return this.transport.end(envelope, guard);
		}
		catch (RuntimeException ex) {
			return -1;
		}
	}

	private void send(String method, byte[] message, Envelope envelope, Duration timeout) {
		Watchdog.Guard guard = this.watchdog.arm(timeout);
		try {
			this.transport.send(message, envelope, guard);
		}
		catch (IOException | RuntimeException ex) {
			if (guard.expired()) {
				throw new McpTimeoutException(this.upstream, method, guard.timeout());
			}
			throw this.failures.translate(method, ex, false);
		}
		finally {
			guard.close();
		}
	}

	private Reply reply(Received received, Envelope envelope) {
		JsonRpcMessage.Response response = received.response();
		if (response.error() != null) {
			throw new McpJsonRpcException(this.upstream, envelope.method(), response.error().code(),
					this.redaction.scrub(response.error().message(), lazySecrets(envelope)), response.error().data());
		}
		JsonNode result = response.result();
		return new Reply((result != null) ? result : this.jsonRpc.object(), received.sessionId());
	}

	/**
	 * Removes the client's secrets from text a server wrote in a result rather than in an
	 * error (the inline {@code error} of a failed 2026-07-28 task), as a JSON-RPC error's
	 * message is.
	 * @param text the server's text
	 * @param envelope what the message that got it carried
	 * @return the text without them
	 */
	public String scrub(String text, Envelope envelope) {
		return this.redaction.scrub(text, lazySecrets(envelope));
	}

	/** The transport's secrets, gathered only if some text is long enough to hold one. */
	private Iterable<String> lazySecrets(Envelope envelope) {
		return () -> this.transport.secrets(envelope).iterator();
	}

	private McpException failure(String method, long id, Exception ex, Watchdog.Guard guard, Duration timeout,
			Envelope envelope, ExchangeOptions options) {
		if (guard.expired()) {
			return timedOut(method, id, timeout, envelope, options);
		}
		if (guard.cancelled() || Thread.currentThread().isInterrupted()) {
			return cancelled(method, id, ex, envelope, options);
		}
		return this.failures.translate(method, ex, options.resumable());
	}

	/**
	 * The application interrupted the waiting thread: the server is told as a timeout tells
	 * it (2025-11-25 basic/utilities/cancellation; on modern Streamable HTTP the closed stream
	 * is the cancellation, 2026-07-28 basic/patterns/cancellation), and the thread's interrupt
	 * flag is set again for the caller.
	 */
	private McpCancelledException cancelled(String method, long id, Exception ex, Envelope envelope,
			ExchangeOptions options) {
		if ((options.notifyCancellation() || !this.transport.cancelsByClosing())
				&& !McpMethods.INITIALIZE.equals(method)) {
			sendCancelled(id, "the client cancelled the request", envelope);
		}
		Thread.currentThread().interrupt();
		return new McpCancelledException(this.upstream, method, ex);
	}

	private McpTimeoutException timedOut(String method, long id, Duration timeout, Envelope envelope,
			ExchangeOptions options) {
		if ((options.notifyCancellation() || !this.transport.cancelsByClosing())
				&& !McpMethods.INITIALIZE.equals(method)) {
			sendCancelled(id, "timed out after " + timeout.toMillis() + " ms", envelope);
		}
		return new McpTimeoutException(this.upstream, method, timeout);
	}

	/**
	 * Tells the server to stop working on a request the client gave up on (2025-11-25
	 * basic/utilities/cancellation), off the caller's thread.
	 */
	private void sendCancelled(long id, String reason, Envelope envelope) {
		ObjectNode params = this.jsonRpc.object();
		params.put("requestId", id);
		params.put("reason", reason);
		Envelope notice = envelope.forMethod(McpMethods.CANCELLED);
		this.background.execute(() -> {
			try {
				notify(McpMethods.CANCELLED, params, notice, NOTICE_TIMEOUT);
			}
			catch (McpException ex) {
				logger.debug("[" + this.upstream + "] cancellation notice not delivered: " + ex.getMessage());
			}
		});
	}

	/** Routes what arrives besides the awaited response. */
	private InboundMessages inbound(Envelope envelope, ExchangeOptions options) {
		return (message) -> {
			if (message instanceof JsonRpcMessage.Notification notification) {
				if (McpMethods.PROGRESS.equals(notification.method())) {
					this.progress.deliver(notification.params());
				}
				try {
					this.listener.onNotification(this.upstream, notification.method(), notification.params());
				}
				catch (RuntimeException ex) {
					logger.warn("[" + this.upstream + "] a notification listener failed on " + notification.method(),
							ex);
				}
			}
			else if (message instanceof JsonRpcMessage.Request request) {
				this.serverRequests.answer(request, envelope.method(), options, lazySecrets(envelope),
						(answer) -> answerServer(request.method(), answer, envelope));
			}
		};
	}

	private void answerServer(String method, byte[] answer, Envelope envelope) {
		String what = "response to " + method;
		try {
			send(what, answer, envelope.forMethod(what), NOTICE_TIMEOUT);
		}
		catch (McpException ex) {
			logger.debug("[" + this.upstream + "] could not answer the server's " + method + ": " + ex.getMessage());
		}
	}

	/**
	 * The result of a request, with what the transport learned from its response.
	 *
	 * @param result the {@code result} member
	 * @param sessionId the session id the upstream assigned with it
	 */
	public record Reply(JsonNode result, @Nullable String sessionId) {
	}

}
