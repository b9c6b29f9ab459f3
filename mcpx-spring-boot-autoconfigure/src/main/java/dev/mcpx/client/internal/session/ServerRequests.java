package dev.mcpx.client.internal.session;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.Redaction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one home of the answers to requests a server sends the client, whatever the era and
 * the transport they arrived on (a POST's response stream, the listen stream, a stdio
 * channel): this class decides the answer, the exchange sends it back the way the request
 * came, in the same session.
 * <p>
 * Legacy era: {@code ping} is answered with an empty result (2025-11-25
 * basic/utilities/ping). {@code elicitation/create}, {@code sampling/createMessage} and
 * {@code roots/list} are answered through the application's input handler
 * ({@link InputAnswers}, the same one that answers modern input rounds) when it declares
 * them, and declared as client capabilities in {@code initialize} (2025-11-25
 * basic/lifecycle §Capability Negotiation); anything else gets method-not-found (2025-11-25
 * basic §Responses). The handler runs off the thread that reads the stream, on a bounded
 * pool, and its answer is bounded by a timeout: a handler that throws, is busy or is too
 * slow is answered with a JSON-RPC error whose message is redacted, so a server never waits
 * for ever and a stream is never blocked by an application. Modern era: servers must not
 * send requests on a stream and a client never sends responses (2026-07-28
 * transports/streamable-http §Sending Messages, rule 4): the request is dropped; input is
 * asked for in results instead (basic/patterns/mrtr).
 */
public final class ServerRequests implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ServerRequests.class);

	/** Input handlers running at once: each holds a thread; a server asks rarely, a flood is refused. */
	static final int MAX_CONCURRENT_HANDLERS = 8;

	/** How long an idle handler thread lingers. */
	private static final long HANDLER_KEEP_ALIVE_SECONDS = 5;

	/** The capability each input method needs, as the client declares it in {@code initialize}. */
	private static final Map<String, String> CAPABILITY_OF_INPUT = Map.of(ElicitationDefaults.METHOD, "elicitation",
			"sampling/createMessage", "sampling", "roots/list", "roots");

	private final String upstream;

	private final JsonRpc jsonRpc;

	private final @Nullable InputAnswers answers;

	private final Duration handlerTimeout;

	private final Redaction redaction;

	/** Where an answer is sent from when its handler did not finish in time. */
	private final Executor late;

	private final @Nullable ThreadPoolExecutor handlers;

	/**
	 * Creates the server-request answers of a client without an input handler.
	 * @param upstream the upstream name
	 * @param jsonRpc the message codec
	 */
	public ServerRequests(String upstream, JsonRpc jsonRpc) {
		this(upstream, jsonRpc, null, Duration.ofSeconds(30), new Redaction(), Runnable::run);
	}

	/**
	 * Creates the server-request answers of one client.
	 * @param upstream the upstream name
	 * @param jsonRpc the message codec
	 * @param answers the application's input handler, absent for none
	 * @param handlerTimeout the bound of one answer of the handler
	 * @param redaction scrubs secrets from a failed handler's message
	 * @param late sends the answer of a handler that did not finish in time
	 */
	public ServerRequests(String upstream, JsonRpc jsonRpc, @Nullable InputAnswers answers, Duration handlerTimeout,
			Redaction redaction, Executor late) {
		this.upstream = upstream;
		this.jsonRpc = jsonRpc;
		this.answers = answers;
		this.handlerTimeout = handlerTimeout;
		this.redaction = redaction;
		this.late = late;
		if (answers == null) {
			this.handlers = null;
		}
		else {
			AtomicInteger count = new AtomicInteger();
			ThreadPoolExecutor pool = new ThreadPoolExecutor(0, MAX_CONCURRENT_HANDLERS, HANDLER_KEEP_ALIVE_SECONDS,
					TimeUnit.SECONDS, new SynchronousQueue<>(), (runnable) -> {
						Thread thread = new Thread(runnable, "mcpx-" + upstream + "-input-" + count.incrementAndGet());
						thread.setDaemon(true);
						return thread;
					}, new ThreadPoolExecutor.AbortPolicy());
			this.handlers = pool;
		}
	}

	/**
	 * The capabilities the client declares in {@code initialize}: the server requests it
	 * answers beyond {@code ping} (2025-11-25 basic/lifecycle §Capability Negotiation).
	 * Elicitation in form mode (client/elicitation §Capabilities), sampling, and roots with
	 * {@code listChanged} (client/roots §Capabilities).
	 * @return the client capabilities
	 */
	public ObjectNode clientCapabilities() {
		ObjectNode capabilities = this.jsonRpc.object();
		if (this.answers == null) {
			return capabilities;
		}
		for (String method : this.answers.methods()) {
			String capability = CAPABILITY_OF_INPUT.get(method);
			if (capability == null) {
				continue;
			}
			ObjectNode declared = capabilities.putObject(capability);
			if (capability.equals("elicitation")) {
				declared.putObject("form");
			}
			else if (capability.equals("roots")) {
				declared.put("listChanged", true);
			}
		}
		return capabilities;
	}

	/**
	 * Whether the client declared the roots capability, so that it may announce a change of
	 * its roots (2025-11-25 client/roots §Root List Changes).
	 * @return {@code true} when the input handler answers {@code roots/list}
	 */
	public boolean declaresRoots() {
		return this.answers != null && this.answers.methods().contains("roots/list");
	}

	/**
	 * Answers one server request, now or later; never blocks on the application.
	 * @param request what the server asked
	 * @param originalMethod the method of the request whose stream carried it ({@code listen}
	 * for the listen stream)
	 * @param options the era's behaviour
	 * @param secrets what the transport sent, scrubbed from error text
	 * @param reply sends an encoded response back the way the request came
	 */
	public void answer(JsonRpcMessage.Request request, String originalMethod, ExchangeOptions options,
			Iterable<String> secrets, Consumer<byte[]> reply) {
		if (!options.answerServerRequests()) {
			logger.debug("[" + this.upstream + "] ignored a server request (" + request.method()
					+ ") on a modern response stream");
			return;
		}
		if (McpMethods.PING.equals(request.method())) {
			reply.accept(this.jsonRpc.result(request.id(), this.jsonRpc.object()));
			return;
		}
		InputAnswers handler = this.answers;
		if (handler == null || this.handlers == null || !CAPABILITY_OF_INPUT.containsKey(request.method())
				|| !handler.methods().contains(request.method())) {
			// 2025-11-25 basic §Responses: a capability the client did not declare is a method it does not know.
			reply.accept(this.jsonRpc.error(request.id(), McpJsonRpcException.METHOD_NOT_FOUND,
					"Method not found: " + request.method()));
			return;
		}
		CompletableFuture<byte[]> answer = new CompletableFuture<>();
		Future<?> running;
		try {
			running = this.handlers.submit(() -> answer.complete(handle(handler, request, originalMethod, secrets)));
		}
		catch (RejectedExecutionException ex) {
			logger.warn("[" + this.upstream + "] refused the server's " + request.method() + ": "
					+ MAX_CONCURRENT_HANDLERS + " input requests are being answered already");
			reply.accept(this.jsonRpc.error(request.id(), McpJsonRpcException.INTERNAL_ERROR,
					"the client is answering " + MAX_CONCURRENT_HANDLERS + " requests already; try again later"));
			return;
		}
		answer.orTimeout(this.handlerTimeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((encoded, failure) -> {
			if (failure == null) {
				reply.accept(encoded);
				return;
			}
			running.cancel(true);
			String why = (failure instanceof TimeoutException)
					? "the client's input handler did not answer within " + this.handlerTimeout.toMillis() + " ms"
					: "the client's input handler failed";
			logger.warn("[" + this.upstream + "] " + why + " the server's " + request.method());
			byte[] error = this.jsonRpc.error(request.id(), McpJsonRpcException.INTERNAL_ERROR, why);
			// Not on the timer's thread: sending may block for a while.
			this.late.execute(() -> reply.accept(error));
		});
	}

	/** Runs the handler on a handler thread; a failure becomes a JSON-RPC error, redacted. */
	private byte[] handle(InputAnswers handler, JsonRpcMessage.Request request, String originalMethod,
			Iterable<String> secrets) {
		try {
			JsonNode answer = handler.answer(request.id().asString(), request.method(), request.params(),
					originalMethod);
			if (answer == null) {
				throw new IllegalStateException("the input handler answered null");
			}
			if (ElicitationDefaults.METHOD.equals(request.method())) {
				answer = ElicitationDefaults.apply(request.params(), answer);
			}
			return this.jsonRpc.result(request.id(), answer);
		}
		catch (RuntimeException ex) {
			logger.warn("[" + this.upstream + "] the input handler failed to answer the server's " + request.method()
					+ ": " + this.redaction.scrub(String.valueOf(ex.getMessage()), secrets));
			String message = this.redaction.scrub(ex.getClass().getSimpleName() + ": " + ex.getMessage(), secrets);
			return this.jsonRpc.error(request.id(), McpJsonRpcException.INTERNAL_ERROR, "the client's input handler "
					+ "failed: " + message);
		}
	}

	@Override
	public void close() {
		if (this.handlers != null) {
			this.handlers.shutdownNow();
		}
	}

}
