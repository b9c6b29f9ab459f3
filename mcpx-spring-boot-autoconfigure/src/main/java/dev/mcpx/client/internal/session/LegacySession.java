package dev.mcpx.client.internal.session;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.io.Closeable;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.transport.Envelope;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A legacy-era (2025-03-26 to 2025-11-25) session with one upstream: the
 * {@code initialize} handshake, the {@code MCP-Session-Id} and {@code MCP-Protocol-Version}
 * headers on every later message, and the session's generation.
 * <p>
 * The session opens lazily, once, however many threads ask at the same time. Each request
 * runs on an explicit {@link SessionState}, so a failure can be attributed to the
 * generation it happened on; {@link #renew(SessionState, RenewalListener)} replaces a dead
 * session once for all callers that saw it die.
 */
public final class LegacySession implements ProtocolSession {

	private static final Log logger = LogFactory.getLog(LegacySession.class);

	/** The revision this client offers in {@code initialize}. */
	public static final String LATEST_VERSION = "2025-11-25";

	/** Every legacy revision this client speaks, newest first. */
	public static final List<String> SUPPORTED_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26");

	/** Bound of the DELETE that ends a session on close: shutting down must not hang. */
	public static final Duration DELETE_TIMEOUT = Duration.ofSeconds(2);

	private final SessionSettings settings;

	private final Exchange exchange;

	private final Object handshakeLock = new Object();

	private volatile @Nullable SessionState state;

	/** Guarded by {@code handshakeLock}: the generation of the next session opened. */
	private long nextGeneration = 1;

	/** Renewal handshakes started; written under {@code handshakeLock}. */
	private volatile long renewalFlights;

	/** Guarded by {@code handshakeLock}: the failure of the last renewal, until one succeeds. */
	private @Nullable McpException failedRenewal;

	private long failedRenewalGeneration;

	private volatile boolean closed;

	private final SessionSetup setup;

	/**
	 * Creates a session that opens on first use.
	 * @param settings the client's settings
	 * @param exchange performs the exchanges
	 */
	public LegacySession(SessionSettings settings, Exchange exchange) {
		this(settings, exchange, SessionSetup.NONE);
	}

	/**
	 * Creates a session that opens on first use and re-establishes the client's session
	 * state after every handshake.
	 * @param settings the client's settings
	 * @param exchange performs the exchanges
	 * @param setup what every new session is given
	 */
	public LegacySession(SessionSettings settings, Exchange exchange, SessionSetup setup) {
		this.settings = settings;
		this.exchange = exchange;
		this.setup = setup;
	}

	/**
	 * The current session, opening one if there is none yet.
	 * @return the current state
	 * @throws McpException if the handshake fails
	 */
	@Override
	public SessionState open() {
		SessionState current = this.state;
		if (current != null) {
			return current;
		}
		synchronized (this.handshakeLock) {
			if (this.state == null) {
				this.state = handshake(this.nextGeneration);
			}
			return this.state;
		}
	}

	/**
	 * Replaces a session that died, once for every caller that saw it die: the first
	 * caller for generation <em>g</em> runs a new handshake producing <em>g+1</em>; callers
	 * arriving later with <em>g</em> (or older) get that new session without a handshake.
	 * Only the caller that ran the handshake hears of it through the listener, so an
	 * expiry is reported once however many callers saw it.
	 * @param dead the state the caller's request failed on
	 * @param listener told of the expiry and its outcome, by the caller that handles it
	 * @return the state to retry on
	 * @throws McpException if the handshake fails; the next call tries again
	 */
	@Override
	public SessionState renew(SessionState dead, RenewalListener listener) {
		long flightsBefore = this.renewalFlights;
		synchronized (this.handshakeLock) {
			SessionState current = this.state;
			if (current != null && current.generation() > dead.generation()) {
				return current;
			}
			if (current == null && this.nextGeneration > dead.generation()) {
				// Invalidated since: open afresh.
				this.state = handshake(this.nextGeneration);
				return this.state;
			}
			if (this.renewalFlights != flightsBefore && this.failedRenewal != null
					&& this.failedRenewalGeneration == dead.generation()) {
				// This caller waited on a renewal that failed: share its outcome rather than
				// queue one more handshake against a server that just refused one.
				throw this.failedRenewal;
			}
			this.renewalFlights++;
			listener.expired(dead);
			long started = System.nanoTime();
			SessionState next;
			try {
				next = handshake(dead.generation() + 1);
			}
			catch (McpException ex) {
				// The dead session stays current: the next caller to fail on it tries again.
				this.failedRenewal = ex;
				this.failedRenewalGeneration = dead.generation();
				listener.failed(dead, ex);
				throw ex;
			}
			this.failedRenewal = null;
			this.state = next;
			listener.renewed(dead, next, Duration.ofNanos(System.nanoTime() - started));
			return next;
		}
	}

	/**
	 * Forgets a dead session without opening a new one: the next use opens one.
	 * @param dead the state found dead
	 */
	@Override
	public void invalidate(SessionState dead) {
		synchronized (this.handshakeLock) {
			if (this.state != null && this.state.generation() == dead.generation()) {
				this.state = null;
				this.nextGeneration = dead.generation() + 1;
			}
		}
	}

	/**
	 * The current state without opening a session.
	 * @return the state, absent before the first handshake
	 */
	@Override
	public @Nullable SessionState current() {
		return this.state;
	}

	@Override
	public JsonNode request(SessionState on, McpRequest request) {
		return this.exchange
			.request(request.method(), request.params(), envelope(on, request.method()), request.timeout(),
					ExchangeOptions.LEGACY)
			.result();
	}

	@Override
	public JsonNode resume(SessionState on, McpRequest request, Resumption from, Duration remaining) {
		return this.exchange
			.resume(from, request.params(), envelope(on, request.method()), request.timeout(), remaining,
					ExchangeOptions.LEGACY)
			.result();
	}

	/**
	 * Sends a notification on the given session.
	 * @param on the session to send it on
	 * @param method the method
	 * @param params the parameters
	 * @param timeout the bound of the exchange
	 * @throws McpException on any failure
	 */
	@Override
	public void notify(SessionState on, String method, @Nullable JsonNode params, Duration timeout) {
		this.exchange.notify(method, params, envelope(on, method), timeout);
	}

	/** 2025-11-25 transports §Listening for Messages from the Server: a GET on the session. */
	@Override
	public ListenOutcome listen(SessionState on, Consumer<Closeable> opened) {
		return this.exchange.listen(null, envelope(on, "listen"), opened, ExchangeOptions.LEGACY);
	}

	/**
	 * Ends the session: a DELETE with its id, bounded to {@link #DELETE_TIMEOUT}, errors
	 * ignored (2025-11-25 transports §Session Management, rule 5).
	 */
	@Override
	public EraTraits traits(SessionState on) {
		return EraTraits.LEGACY;
	}

	@Override
	public void close() {
		this.closed = true;
		SessionState current = this.state;
		if (current != null && current.hasSessionId()) {
			int status = this.exchange.end(envelope(current, "DELETE"), DELETE_TIMEOUT);
			logger.debug("[" + this.settings.upstream() + "] ended session " + current.redactedSessionId()
					+ " (DELETE answered " + status + ")");
		}
	}

	/**
	 * Whether {@link #close()} was called.
	 * @return {@code true} once closed
	 */
	public boolean isClosed() {
		return this.closed;
	}

	private SessionState handshake(long generation) {
		Duration timeout = this.settings.handshakeTimeout();
		ObjectNode params = this.exchange.jsonRpc().object();
		params.put("protocolVersion", LATEST_VERSION);
		params.set("capabilities", this.exchange.clientCapabilities());
		ObjectNode clientInfo = params.putObject("clientInfo");
		clientInfo.put("name", this.settings.clientInfo().name());
		clientInfo.put("version", this.settings.clientInfo().version());
		this.exchange.open(generation, timeout);
		// 2025-11-25 basic/transports §Session Management, rule 4: a new session starts without a session id.
		Exchange.Reply reply = this.exchange.request(McpMethods.INITIALIZE, params,
				Envelope.unsessioned(McpMethods.INITIALIZE, generation), timeout, ExchangeOptions.HANDSHAKE);
		JsonNode result = reply.result();
		String version = result.path("protocolVersion").asString(null);
		if (version == null || !SUPPORTED_VERSIONS.contains(version)) {
			throw new McpProtocolException(this.settings.upstream(), "the server chose protocol version '" + version
					+ "', which this client does not speak; it speaks " + SUPPORTED_VERSIONS, null);
		}
		String sessionId = reply.sessionId();
		if (sessionId != null && !isVisibleAscii(sessionId)) {
			// 2025-11-25 transports §Session Management, rule 1: visible ASCII only; never echo anything else.
			throw new McpProtocolException(this.settings.upstream(),
					"the server assigned a session id with characters outside visible ASCII (0x21-0x7E)", null);
		}
		if (sessionId != null) {
			this.exchange.redaction().remember(sessionId);
		}
		Implementation server = implementation(result.path("serverInfo"));
		SessionState next = new SessionState(ProtocolEra.LEGACY, generation, sessionId, version, server,
				result.path("capabilities"));
		this.exchange.notify(McpMethods.INITIALIZED, null, envelope(next, McpMethods.INITIALIZED), timeout);
		this.setup.established(next, (method, setupParams) -> request(next,
				new McpRequest(method, setupParams, null, this.settings.requestTimeout())));
		if (generation == 1) {
			logger.info("[" + this.settings.upstream() + "] connected: legacy era, protocol " + version + ", server "
					+ server.name() + " " + server.version() + ", session "
					+ next.redactedSessionId());
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("[" + this.settings.upstream() + "] opened " + next);
		}
		return next;
	}

	/**
	 * What every message of a session after {@code initialize} carries: the session id
	 * (2025-11-25 basic/transports §Session Management, rule 2) and the protocol version
	 * (§Protocol Version Header).
	 */
	private static Envelope envelope(SessionState on, String method) {
		return new Envelope(method, on.generation(), on.sessionId(), on.protocolVersion(), Map.of());
	}

	static boolean isVisibleAscii(String value) {
		if (value.isEmpty()) {
			return false;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x21 || c > 0x7E) {
				return false;
			}
		}
		return true;
	}

	private static Implementation implementation(JsonNode info) {
		return new Implementation(info.path("name").asString(""), info.path("version").asString(""),
				info.path("title").asString(null));
	}

}
