package dev.mcpx.client.internal.session;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.ProcessStatus;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpInputRequiredException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.error.McpUnsupportedVersionException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.transport.stdio.ChannelClosedException;
import dev.mcpx.client.internal.transport.stdio.ExitStatus;
import dev.mcpx.client.internal.transport.stdio.RestartBudget;
import dev.mcpx.client.internal.transport.stdio.StdioChannel;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A stdio upstream: a server process the client starts, one {@link StdioChannel} per
 * process and one generation per process (2025-11-25 basic/transports §stdio; 2026-07-28
 * basic/transports/stdio). The process starts on first use; when it ends unexpectedly the
 * request that finds it dead restarts it through {@link #renew}, once for every caller that
 * saw that generation die, exactly as a legacy session is re-initialized, within the
 * {@link ProcessRestartPolicy}'s backoff and budget. Each new process gets the handshake of
 * its era: {@code initialize} in the legacy era, a {@code server/discover} probe in
 * {@code auto} mode (2026-07-28 basic/transports/stdio §Backward Compatibility).
 */
public final class StdioSession implements ProtocolSession {

	private static final Log logger = LogFactory.getLog(StdioSession.class);

	/**
	 * How long the {@code server/discover} probe waits before the server is taken for a
	 * legacy one that ignores unknown requests (§Backward Compatibility: "does not respond
	 * within a reasonable timeout").
	 */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

	/** Bound of a fire-and-forget message on the channel, such as a cancellation. */
	private static final Duration NOTICE_TIMEOUT = Duration.ofSeconds(2);

	private static final String MODERN_VERSION = ModernSession.SUPPORTED_VERSIONS.get(0);

	private final SessionSettings settings;

	private final StdioCommand command;

	private final @Nullable ProtocolEra forcedEra;

	private final JsonRpc jsonRpc;

	private final ServerMessageListener listener;

	private final BiConsumer<SessionState, @Nullable ProtocolEra> detected;

	private final RestartBudget budget;

	private final Clock clock;

	private final AtomicLong ids = new AtomicLong();

	private final Object lifecycleLock = new Object();

	private volatile @Nullable Generation current;

	/** Guarded by {@code lifecycleLock}: the generation of the next process started. */
	private long nextGeneration = 1;

	/** Guarded by {@code lifecycleLock}: the era found by the first probe, kept for the client's life. */
	private @Nullable ProtocolEra detectedEra;

	/** Restarts attempted; written under {@code lifecycleLock}. */
	private volatile long renewalFlights;

	/** Guarded by {@code lifecycleLock}: the failure of the last restart, until one succeeds. */
	private @Nullable McpException failedRenewal;

	private long failedRenewalGeneration;

	private volatile @Nullable ExitStatus lastExit;

	private volatile @Nullable Instant lastStartedAt;

	private volatile @Nullable Instant lastExitAt;

	private volatile boolean closed;

	/**
	 * Creates a stdio session whose process starts on first use.
	 * @param settings the client's settings
	 * @param command what to start
	 * @param restartPolicy when a process that ended is started again
	 * @param forcedEra the era fixed by configuration, absent for {@code auto}
	 * @param jsonRpc the message codec
	 * @param listener receives server notifications
	 * @param detected told of the era the probe found: the state and the era assumed before
	 * @param clock the time source of the restart budget
	 */
	public StdioSession(SessionSettings settings, StdioCommand command, ProcessRestartPolicy restartPolicy,
			@Nullable ProtocolEra forcedEra, JsonRpc jsonRpc, ServerMessageListener listener,
			BiConsumer<SessionState, @Nullable ProtocolEra> detected, Clock clock) {
		this.settings = settings;
		this.command = command;
		this.forcedEra = forcedEra;
		this.jsonRpc = jsonRpc;
		this.listener = listener;
		this.detected = detected;
		this.clock = clock;
		this.budget = new RestartBudget(restartPolicy, clock);
	}

	@Override
	public SessionState open() {
		Generation running = this.current;
		if (running != null) {
			return running.state();
		}
		synchronized (this.lifecycleLock) {
			if (this.current == null) {
				this.current = start(this.nextGeneration);
			}
			return this.current.state();
		}
	}

	@Override
	public @Nullable SessionState current() {
		Generation running = this.current;
		return (running != null) ? running.state() : null;
	}

	/**
	 * Starts a new process in place of one that ended, once for every caller that saw it
	 * end: the first caller for generation <em>g</em> starts <em>g+1</em>; callers arriving
	 * later with <em>g</em> (or older) get it without a start of their own. Callers that
	 * waited on a start that failed share its failure.
	 * @param dead the state whose process ended
	 * @param listener told of the restart and its outcome, by the caller that performs it
	 * @return the state to retry on
	 * @throws McpRecoveryFailedException if the process cannot be started, its handshake
	 * fails, or the restart budget is spent
	 */
	@Override
	public SessionState renew(SessionState dead, RenewalListener listener) {
		long flightsBefore = this.renewalFlights;
		synchronized (this.lifecycleLock) {
			Generation running = this.current;
			if (running != null && running.state().generation() > dead.generation()) {
				return running.state();
			}
			if (running == null && this.nextGeneration > dead.generation()) {
				this.current = start(this.nextGeneration);
				return this.current.state();
			}
			if (this.renewalFlights != flightsBefore && this.failedRenewal != null
					&& this.failedRenewalGeneration == dead.generation()) {
				throw this.failedRenewal;
			}
			this.renewalFlights++;
			listener.expired(dead);
			long started = System.nanoTime();
			Generation next;
			try {
				next = start(dead.generation() + 1);
			}
			catch (McpException ex) {
				this.failedRenewal = ex;
				this.failedRenewalGeneration = dead.generation();
				listener.failed(dead, ex);
				throw ex;
			}
			this.failedRenewal = null;
			this.current = next;
			listener.renewed(dead, next.state(), Duration.ofNanos(System.nanoTime() - started));
			return next.state();
		}
	}

	@Override
	public void invalidate(SessionState dead) {
		synchronized (this.lifecycleLock) {
			Generation running = this.current;
			if (running != null && running.state().generation() == dead.generation()) {
				this.current = null;
				this.nextGeneration = dead.generation() + 1;
				running.channel().abort("its session was given up");
			}
		}
	}

	@Override
	public JsonNode request(SessionState on, McpRequest request) {
		Generation running = this.current;
		if (running == null || running.state().generation() != on.generation()) {
			// The process of that generation is gone: the request never reached it.
			ExitStatus exit = this.lastExit;
			throw new ProcessExitedException(upstream(), request.method(),
					(exit != null) ? exit : new ExitStatus(-1, -1, "it was replaced"), false, null);
		}
		JsonNode params = (on.era() == ProtocolEra.MODERN) ? withMeta(on, request.params()) : request.params();
		JsonNode result = call(running.channel(), request.method(), params, request.timeout(), true);
		if (on.era() == ProtocolEra.MODERN) {
			return modernResult(request.method(), result);
		}
		return result;
	}

	/**
	 * stdio has a single channel: notifications arrive on it whenever the server sends
	 * them, so there is no stream to hold open.
	 */
	@Override
	public JsonRpcExchange.ListenOutcome listen(SessionState on, Consumer<java.io.Closeable> opened) {
		return JsonRpcExchange.ListenOutcome.NOT_OFFERED;
	}

	/**
	 * Ends the process and its tree: stdin closed, then SIGTERM, then SIGKILL (2025-11-25
	 * basic/lifecycle §Shutdown, stdio).
	 */
	@Override
	public void close() {
		this.closed = true;
		Generation running = this.current;
		if (running != null) {
			running.channel().close();
			logger.debug("[" + upstream() + "] stopped the server " + running.channel().exit());
		}
	}

	/**
	 * What an operator wants to know about the server process.
	 * @return the process's status
	 */
	public ProcessStatus status() {
		Generation running = this.current;
		boolean alive = running != null && running.channel().exit() == null;
		ExitStatus exit = this.lastExit;
		return new ProcessStatus(this.command.command(), alive ? running.channel().pid() : null,
				alive ? running.channel().startedAt() : null, this.budget.restarts(),
				(exit != null && exit.code() >= 0) ? exit.code() : null, (exit != null) ? exit.describe() : null,
				this.budget.downUntil());
	}

	/** Guarded by {@code lifecycleLock}. */
	private Generation start(long generation) {
		if (this.closed) {
			throw new McpTransportException(upstream(), "the client is closed", new IOException("closed"));
		}
		Duration wait;
		try {
			wait = this.budget.admit(lastRanFor());
		}
		catch (RestartBudget.Exhausted ex) {
			ExitStatus exit = this.lastExit;
			throw new McpRecoveryFailedException(upstream(), "the server process '" + this.command.command()
					+ "' is not started again: " + ex.getMessage()
					+ ((exit != null) ? "; the last one " + exit.describe().substring("process ".length()) : ""), ex);
		}
		pause(wait);
		StdioChannel channel;
		try {
			channel = StdioChannel.open(upstream(), this.command, this.jsonRpc, this.settings.maxMessageBytes(),
					new ChannelEvents());
		}
		catch (IOException ex) {
			throw new McpRecoveryFailedException(upstream(),
					"could not start the server process '" + this.command.command() + "': " + describe(ex), ex);
		}
		this.lastStartedAt = channel.startedAt();
		SessionState state;
		try {
			state = handshake(generation, channel);
		}
		catch (McpException ex) {
			channel.abort("its handshake failed");
			throw new McpRecoveryFailedException(upstream(), "the server process '" + this.command.command()
					+ "' (pid " + channel.pid() + ") did not complete its handshake: " + ex.getMessage(), ex);
		}
		if (this.closed) {
			channel.close();
			throw new McpTransportException(upstream(), "the client is closed", new IOException("closed"));
		}
		this.nextGeneration = generation + 1;
		return new Generation(state, channel);
	}

	private @Nullable Duration lastRanFor() {
		Instant started = this.lastStartedAt;
		Instant ended = this.lastExitAt;
		if (started == null) {
			return null;
		}
		return (ended != null && ended.isAfter(started)) ? Duration.between(started, ended) : Duration.ZERO;
	}

	/** Guarded by {@code lifecycleLock}. */
	private SessionState handshake(long generation, StdioChannel channel) {
		ProtocolEra era = (this.forcedEra != null) ? this.forcedEra : this.detectedEra;
		if (era == ProtocolEra.LEGACY) {
			return initialize(generation, channel);
		}
		if (era == ProtocolEra.MODERN) {
			return discover(generation, channel, this.settings.handshakeTimeout());
		}
		SessionState state;
		try {
			state = discover(generation, channel, PROBE_TIMEOUT);
		}
		catch (ProcessExitedException | McpUnsupportedVersionException ex) {
			// A crash is a crash; a recognized modern error means a modern server: no fallback.
			throw ex;
		}
		catch (McpException ex) {
			// Any other error, or no answer in time: a legacy server (§Backward Compatibility).
			logger.debug("[" + upstream() + "] the server/discover probe failed (" + ex.getMessage()
					+ "); falling back to initialize");
			state = initialize(generation, channel);
		}
		this.detectedEra = state.era();
		this.detected.accept(state, null);
		return state;
	}

	private SessionState initialize(long generation, StdioChannel channel) {
		ObjectNode params = this.jsonRpc.object();
		params.put("protocolVersion", LegacySession.LATEST_VERSION);
		params.putObject("capabilities");
		ObjectNode clientInfo = params.putObject("clientInfo");
		clientInfo.put("name", this.settings.clientInfo().name());
		clientInfo.put("version", this.settings.clientInfo().version());
		JsonNode result = call(channel, McpMethods.INITIALIZE, params, this.settings.handshakeTimeout(), false);
		String version = result.path("protocolVersion").asString(null);
		if (version == null || !LegacySession.SUPPORTED_VERSIONS.contains(version)) {
			throw new McpProtocolException(upstream(), "the server chose protocol version '" + version
					+ "', which this client does not speak; it speaks " + LegacySession.SUPPORTED_VERSIONS, null);
		}
		SessionState state = new SessionState(ProtocolEra.LEGACY, generation, null, version,
				implementation(result.path("serverInfo")), result.path("capabilities"));
		notify(channel, McpMethods.INITIALIZED, null);
		connected(state, channel);
		return state;
	}

	private SessionState discover(long generation, StdioChannel channel, Duration timeout) {
		SessionState probe = new SessionState(ProtocolEra.MODERN, generation, null, MODERN_VERSION, null, null);
		JsonNode result;
		try {
			result = call(channel, McpMethods.SERVER_DISCOVER, withMeta(probe, null), timeout, false);
		}
		catch (McpJsonRpcException ex) {
			if (ex.code() == McpUnsupportedVersionException.CODE) {
				throw new McpUnsupportedVersionException(upstream(), McpMethods.SERVER_DISCOVER, ex.getMessage(),
						(ex.data() != null) ? ex.data() : this.jsonRpc.object());
			}
			throw ex;
		}
		if (!result.path("supportedVersions").isArray()) {
			throw new NotModernServerException(upstream());
		}
		boolean supported = false;
		for (JsonNode version : result.path("supportedVersions")) {
			supported |= MODERN_VERSION.equals(version.asString(""));
		}
		if (!supported) {
			throw new McpUnsupportedVersionException(upstream(), McpMethods.SERVER_DISCOVER,
					"the server supports " + result.path("supportedVersions") + "; this client speaks "
							+ ModernSession.SUPPORTED_VERSIONS, result);
		}
		JsonNode info = result.path("_meta").path("io.modelcontextprotocol/serverInfo");
		SessionState state = new SessionState(ProtocolEra.MODERN, generation, null, MODERN_VERSION,
				info.isObject() ? implementation(info) : null, result.path("capabilities"));
		connected(state, channel);
		return state;
	}

	private void connected(SessionState state, StdioChannel channel) {
		String server = (state.serverInfo() != null)
				? state.serverInfo().name() + " " + state.serverInfo().version() : "(unnamed)";
		if (state.generation() == 1) {
			logger.info("[" + upstream() + "] connected: stdio, process " + channel.pid() + ", "
					+ state.era().name().toLowerCase(java.util.Locale.ROOT) + " era, protocol "
					+ state.protocolVersion() + ", server " + server);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("[" + upstream() + "] started process " + channel.pid() + " for generation "
					+ state.generation());
		}
	}

	/**
	 * One request on one channel, one attempt. Ids are unique for the client's life
	 * (2025-11-25 basic §Requests).
	 */
	private JsonNode call(StdioChannel channel, String method, @Nullable JsonNode params, Duration timeout,
			boolean cancelOnTimeout) {
		long id = this.ids.incrementAndGet();
		CompletableFuture<JsonRpcMessage.Response> pending;
		try {
			pending = channel.request(id, this.jsonRpc.request(id, method, params));
		}
		catch (ChannelClosedException ex) {
			throw new ProcessExitedException(upstream(), method, ex.exit(), false, ex);
		}
		JsonRpcMessage.Response response;
		try {
			response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			channel.forget(id);
			timedOut(channel, id, method, timeout, cancelOnTimeout);
			throw new McpTimeoutException(upstream(), method, timeout);
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof ChannelClosedException closed) {
				throw new ProcessExitedException(upstream(), method, closed.exit(), closed.delivered(), closed);
			}
			throw new McpTransportException(upstream(), method + " failed: " + ex.getCause(), ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			channel.forget(id);
			throw new McpTransportException(upstream(), method + " was interrupted", ex);
		}
		if (response.error() != null) {
			String message = Redaction.scrub(response.error().message(), this.command.env().values());
			if (response.error().code() == McpUnsupportedVersionException.CODE && response.error().data() != null) {
				throw new McpUnsupportedVersionException(upstream(), method, message, response.error().data());
			}
			throw new McpJsonRpcException(upstream(), method, response.error().code(), message,
					response.error().data());
		}
		return (response.result() != null) ? response.result() : this.jsonRpc.object();
	}

	/**
	 * A request the client gave up on is cancelled (2026-07-28 basic/transports/stdio
	 * §Cancellation: the client MUST send {@code notifications/cancelled}; 2025-11-25
	 * basic/utilities/cancellation). A server that does not even answer a ping is taken for
	 * hung and stopped, so the next request starts a new one.
	 */
	private void timedOut(StdioChannel channel, long id, String method, Duration timeout, boolean cancel) {
		if (McpMethods.PING.equals(method)) {
			logger.warn("[" + upstream() + "] the server process " + channel.pid() + " did not answer ping within "
					+ timeout.toMillis() + " ms; stopping it");
			channel.abort("it did not answer ping within " + timeout.toMillis() + " ms");
			return;
		}
		if (!cancel) {
			return;
		}
		ObjectNode params = this.jsonRpc.object();
		params.put("requestId", id);
		params.put("reason", "timed out after " + timeout.toMillis() + " ms");
		try {
			notify(channel, McpMethods.CANCELLED, params);
		}
		catch (McpException ex) {
			logger.debug("[" + upstream() + "] cancellation notice not delivered: " + ex.getMessage());
		}
	}

	private void notify(StdioChannel channel, String method, @Nullable JsonNode params) {
		try {
			channel.send(this.jsonRpc.notification(method, params));
		}
		catch (ChannelClosedException ex) {
			throw new ProcessExitedException(upstream(), method, ex.exit(), false, ex);
		}
	}

	/** A copy of the parameters with this client's request metadata (2026-07-28 basic §_meta). */
	private ObjectNode withMeta(SessionState on, @Nullable JsonNode params) {
		ObjectNode withMeta = (params instanceof ObjectNode given) ? given.deepCopy() : this.jsonRpc.object();
		ObjectNode meta = (withMeta.get("_meta") instanceof ObjectNode existing) ? existing
				: withMeta.putObject("_meta");
		meta.put("io.modelcontextprotocol/protocolVersion", on.protocolVersion());
		meta.putObject("io.modelcontextprotocol/clientCapabilities");
		ObjectNode clientInfo = meta.putObject("io.modelcontextprotocol/clientInfo");
		clientInfo.put("name", this.settings.clientInfo().name());
		clientInfo.put("version", this.settings.clientInfo().version());
		return withMeta;
	}

	private JsonNode modernResult(String method, JsonNode result) {
		String resultType = result.path("resultType").asString("complete");
		if (resultType.equals("input_required")) {
			throw new McpInputRequiredException(upstream(), method
					+ " asked for input, which this client does not answer over stdio", java.util.Set.of());
		}
		if (!resultType.equals("complete")) {
			throw new McpProtocolException(upstream(), method + " returned an unknown resultType '" + resultType + "'",
					null);
		}
		return result;
	}

	private String upstream() {
		return this.settings.upstream();
	}

	private static void pause(Duration duration) {
		if (duration.isZero()) {
			return;
		}
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static String describe(IOException failure) {
		String message = failure.getMessage();
		return (message != null && !message.isBlank()) ? message : failure.getClass().getSimpleName();
	}

	private static Implementation implementation(JsonNode info) {
		return new Implementation(info.path("name").asString(""), info.path("version").asString(""),
				info.path("title").asString(null));
	}

	/** One process and the state its handshake established. */
	private record Generation(SessionState state, StdioChannel channel) {
	}

	/** What the server sends besides responses, and the end of its process. */
	private final class ChannelEvents implements StdioChannel.Listener {

		@Override
		public void onMessage(StdioChannel channel, JsonRpcMessage message) {
			if (message instanceof JsonRpcMessage.Notification notification) {
				try {
					StdioSession.this.listener.onNotification(upstream(), notification.method(), notification.params());
				}
				catch (RuntimeException ex) {
					logger.warn("[" + upstream() + "] a notification listener failed on " + notification.method(), ex);
				}
			}
			else if (message instanceof JsonRpcMessage.Request request) {
				answer(channel, request);
			}
		}

		/**
		 * A legacy server may ask the client things; this client declares no capability
		 * that invites requests, so it answers {@code ping} and refuses the rest, as over
		 * HTTP. A modern server MUST NOT send requests, and a modern client MUST NOT write
		 * responses (2026-07-28 basic/transports/stdio §Sending Messages): dropped.
		 */
		private void answer(StdioChannel channel, JsonRpcMessage.Request request) {
			ProtocolEra era = (StdioSession.this.forcedEra != null) ? StdioSession.this.forcedEra
					: StdioSession.this.detectedEra;
			if (era == ProtocolEra.MODERN) {
				logger.debug("[" + upstream() + "] ignored a server request (" + request.method() + ") from a "
						+ "modern server");
				return;
			}
			byte[] answer = McpMethods.PING.equals(request.method())
					? StdioSession.this.jsonRpc.result(request.id(), StdioSession.this.jsonRpc.object())
					: StdioSession.this.jsonRpc.error(request.id(), McpJsonRpcException.METHOD_NOT_FOUND,
							"Method not found: " + request.method());
			try {
				channel.send(answer);
			}
			catch (ChannelClosedException ex) {
				logger.debug("[" + upstream() + "] could not answer the server's " + request.method());
			}
		}

		@Override
		public void onExit(StdioChannel channel, ExitStatus exit) {
			StdioSession.this.lastExit = exit;
			StdioSession.this.lastExitAt = StdioSession.this.clock.instant();
			Generation running = StdioSession.this.current;
			if (!StdioSession.this.closed && running != null && running.channel() == channel) {
				logger.warn("[" + upstream() + "] the server " + exit.describe() + " (generation "
						+ running.state().generation() + "); it is started again by the next request");
			}
		}

	}


}
