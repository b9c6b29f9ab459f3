package dev.mcpx.client.internal.transport.stdio;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.ProcessStatus;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.transport.Envelope;
import dev.mcpx.client.internal.transport.InboundMessages;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.McpTransport;
import dev.mcpx.client.internal.transport.NotSentException;
import dev.mcpx.client.internal.transport.Received;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.internal.transport.SessionGoneException;
import dev.mcpx.client.internal.transport.StreamBrokenException;
import dev.mcpx.client.internal.transport.Watchdog;
import dev.mcpx.client.recovery.ProcessRestartPolicy;

/**
 * The stdio transport (2025-11-25 basic/transports §stdio; 2026-07-28
 * basic/transports/stdio): one server process per session generation, seen as one channel
 * of newline-delimited JSON-RPC messages. {@link #open(long)} starts the generation's process
 * (lazily, on first use) after the {@link ProcessRestartPolicy}'s backoff and within its
 * budget. A process that ended shows as the session gone: {@link SessionGoneException} for a
 * request it never read, a {@link StreamBrokenException} with {@code sessionGone} for one it may
 * have read; the recovery layer renews the session, which starts the next generation's process.
 * <p>
 * There is one channel and no per-request stream: what the server sends besides responses goes
 * to the listen stream's receiver while one is open, else to the receiver of the latest request.
 */
public final class StdioTransport implements McpTransport {

	private static final Log logger = LogFactory.getLog(StdioTransport.class);

	/** Requests a server that is alive answers at once: no answer in time means it hangs. */
	private static final List<String> LIVENESS_METHODS = List.of("initialize", "ping");

	private final String upstream;

	private final LaunchSpec command;

	private final JsonRpc jsonRpc;

	private final int maxMessageBytes;

	private final Clock clock;

	private final RestartBudget budget;

	private final Object lifecycleLock = new Object();

	private volatile @Nullable Generation current;

	private volatile @Nullable InboundMessages listening;

	private volatile InboundMessages latest = InboundMessages.NONE;

	private volatile @Nullable ExitStatus lastExit;

	private volatile @Nullable Instant lastStartedAt;

	private volatile @Nullable Instant lastExitAt;

	private volatile boolean closed;

	/**
	 * Creates the transport of one stdio upstream; no process starts before first use.
	 * @param upstream the upstream name
	 * @param command what to start
	 * @param restartPolicy when an ended process is started again
	 * @param jsonRpc the message codec
	 * @param maxMessageBytes the longest stdout line accepted
	 * @param clock the time source of the restart budget
	 */
	public StdioTransport(String upstream, LaunchSpec command, ProcessRestartPolicy restartPolicy, JsonRpc jsonRpc,
			int maxMessageBytes, Clock clock) {
		this.upstream = upstream;
		this.command = command;
		this.jsonRpc = jsonRpc;
		this.maxMessageBytes = maxMessageBytes;
		this.clock = clock;
		this.budget = new RestartBudget(restartPolicy, clock);
	}

	/**
	 * Starts the generation's process unless it runs already; a newer generation replaces an
	 * older process.
	 * @throws McpRecoveryFailedException if the process cannot start, or the restart budget is
	 * spent (the upstream is down until the cool-down ends)
	 */
	@Override
	public void open(long generation) {
		synchronized (this.lifecycleLock) {
			Generation running = this.current;
			if (running != null && running.generation() >= generation && running.channel().exit() == null) {
				return;
			}
			start(generation, running);
		}
	}

	/** Guarded by {@code lifecycleLock}. */
	private void start(long generation, @Nullable Generation previous) {
		if (this.closed) {
			throw new McpTransportException(this.upstream, "the client is closed", new IOException("closed"));
		}
		Duration wait;
		try {
			wait = this.budget.admit(lastRanFor());
		}
		catch (RestartBudget.Exhausted ex) {
			ExitStatus exit = this.lastExit;
			throw new McpRecoveryFailedException(this.upstream, "the server process '" + this.command.command()
					+ "' is not started again: " + ex.getMessage()
					+ ((exit != null) ? "; the last " + exit.describe() : ""), ex);
		}
		if (previous != null && previous.channel().exit() == null) {
			previous.channel().abort("generation " + generation + " replaces it");
		}
		pause(wait);
		StdioChannel channel;
		try {
			channel = StdioChannel.open(this.upstream, this.command, this.jsonRpc, this.maxMessageBytes,
					new ChannelEvents());
		}
		catch (IOException ex) {
			throw new McpRecoveryFailedException(this.upstream,
					"could not start the server process '" + this.command.command() + "': " + describe(ex), ex);
		}
		this.lastStartedAt = channel.startedAt();
		this.current = new Generation(generation, channel);
		logger.debug("[" + this.upstream + "] started server process " + channel.pid() + " for generation "
				+ generation);
	}

	@Override
	public Received request(long id, byte[] message, Envelope envelope, InboundMessages inbound,
			Watchdog.Guard deadline) throws IOException {
		StdioChannel channel = channelFor(envelope);
		this.latest = inbound;
		CompletableFuture<JsonRpcMessage.Response> pending;
		try {
			pending = channel.request(id, message);
		}
		catch (ChannelClosedException ex) {
			throw gone(envelope, ex);
		}
		// The watchdog closes this when the deadline passes, which ends the wait below.
		deadline.attach(() -> pending.completeExceptionally(new InterruptedIOException("deadline")));
		try {
			return new Received(pending.get(), null);
		}
		catch (ExecutionException ex) {
			channel.forget(id);
			if (ex.getCause() instanceof ChannelClosedException closed) {
				// 2026-07-28 basic/transports/stdio §Unexpected Termination: in-flight requests are lost.
				throw new StreamBrokenException("the server " + closed.exit().describe(), closed, null, true);
			}
			if (ex.getCause() instanceof MalformedResponseException malformed) {
				throw new McpProtocolException(this.upstream, envelope.method() + " was answered with a malformed "
						+ "response: " + malformed.getMessage(), null);
			}
			throw timedOut(channel, envelope, deadline);
		}
		catch (InterruptedException ex) {
			// A deadline's interrupt, which its guard clears, or the application's, which the
			// exchange reports as a cancellation: kept either way.
			Thread.currentThread().interrupt();
			channel.forget(id);
			throw timedOut(channel, envelope, deadline);
		}
	}

	/**
	 * A server that does not even answer {@code initialize} or {@code ping} in time hangs:
	 * it is stopped, so the next attempt starts a new one.
	 */
	private IOException timedOut(StdioChannel channel, Envelope envelope, Watchdog.Guard deadline) {
		if (deadline.expired() && LIVENESS_METHODS.contains(envelope.method())) {
			logger.warn("[" + this.upstream + "] the server process " + channel.pid() + " did not answer "
					+ envelope.method() + " within " + deadline.timeout().toMillis() + " ms; stopping it");
			channel.abort("it did not answer " + envelope.method() + " within " + deadline.timeout().toMillis()
					+ " ms");
		}
		return new InterruptedIOException(envelope.method() + " was abandoned");
	}

	/**
	 * stdio streams cannot be resumed: this transport never issues a {@link Resumption}.
	 */
	@Override
	public Received resume(Resumption from, Envelope envelope, InboundMessages inbound, Watchdog.Guard deadline)
			throws IOException {
		throw new StreamBrokenException("a stdio channel cannot be resumed", null, null, true);
	}

	@Override
	public void send(byte[] message, Envelope envelope, Watchdog.Guard deadline) throws IOException {
		Generation running = this.current;
		if (running == null || running.generation() != envelope.generation()) {
			throw new NotSentException(new IOException("the server process of generation " + envelope.generation()
					+ " is gone"));
		}
		try {
			running.channel().send(message);
		}
		catch (ChannelClosedException ex) {
			throw new NotSentException(ex);
		}
	}

	/**
	 * stdio has one channel: the server's unsolicited messages arrive on it whenever it
	 * sends them, and they go to {@code inbound} until the stream is closed or the process
	 * ends. A modern {@code subscriptions/listen} request is written to the channel, and what
	 * the server sends for it arrives the same way (2026-07-28 basic/patterns/subscriptions:
	 * on stdio every subscription shares the one channel).
	 */
	@Override
	public ListenOutcome listen(byte @Nullable [] listenRequest, Envelope envelope, InboundMessages inbound,
			Consumer<Closeable> opened) throws IOException {
		Generation running = this.current;
		if (running == null || running.generation() != envelope.generation() || running.channel().exit() != null) {
			return ListenOutcome.SESSION_GONE;
		}
		CompletableFuture<Object> ended = new CompletableFuture<>();
		running.channel().onExit().whenComplete((exit, ex) -> ended.complete(ListenOutcome.SESSION_GONE));
		this.listening = inbound;
		if (listenRequest != null) {
			try {
				running.channel().send(listenRequest);
			}
			catch (ChannelClosedException ex) {
				this.listening = null;
				return ListenOutcome.SESSION_GONE;
			}
		}
		opened.accept(() -> ended.complete(ListenOutcome.ENDED));
		try {
			return (ListenOutcome) ended.get();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return ListenOutcome.ENDED;
		}
		catch (ExecutionException ex) {
			return ListenOutcome.BROKEN;
		}
		finally {
			if (this.listening == inbound) {
				this.listening = null;
			}
		}
	}

	/**
	 * Ends the generation's process (2025-11-25 basic/lifecycle §Shutdown, stdio).
	 */
	@Override
	public int end(Envelope envelope, Watchdog.Guard deadline) {
		Generation running = this.current;
		if (running == null || running.generation() != envelope.generation()) {
			return -1;
		}
		running.channel().close();
		ExitStatus exit = running.channel().exit();
		return (exit != null) ? exit.code() : -1;
	}

	/** The values given to the child's environment may be secrets. */
	@Override
	public Iterable<String> secrets(Envelope envelope) {
		return this.command.env().values();
	}

	/** One shared channel: a request is cancelled only by {@code notifications/cancelled}. */
	@Override
	public boolean cancelsByClosing() {
		return false;
	}

	@Override
	public String destination() {
		return "stdio:" + this.command.command();
	}

	/**
	 * Ends the running process and its tree: stdin closed, then SIGTERM, then SIGKILL.
	 */
	@Override
	public void close() {
		this.closed = true;
		Generation running = this.current;
		if (running != null) {
			running.channel().close();
		}
	}

	/**
	 * What an operator wants to know about the server process.
	 * @return the process's status
	 */
	public ProcessStatus status() {
		Generation running = this.current;
		StdioChannel channel = (running != null && running.channel().exit() == null) ? running.channel() : null;
		ExitStatus exit = this.lastExit;
		return new ProcessStatus(this.command.command(), (channel != null) ? channel.pid() : null,
				(channel != null) ? channel.startedAt() : null, this.budget.restarts(),
				(exit != null && exit.code() >= 0) ? exit.code() : null, (exit != null) ? exit.describe() : null,
				this.budget.downUntil());
	}

	private StdioChannel channelFor(Envelope envelope) throws SessionGoneException {
		Generation running = this.current;
		if (running == null || running.generation() < envelope.generation()) {
			// The first message of a generation whose handshake opened no channel (a modern
			// discovery): start its process now.
			open(envelope.generation());
			running = this.current;
		}
		if (running == null || running.generation() != envelope.generation()) {
			ExitStatus exit = this.lastExit;
			throw gone(envelope, new ChannelClosedException((exit != null) ? exit
					: new ExitStatus(-1, -1, "a newer generation replaced it"), false, null));
		}
		return running.channel();
	}

	/** The process of the request's generation ended before it read the request. */
	private SessionGoneException gone(Envelope envelope, ChannelClosedException closed) {
		McpTransportException evidence = new McpTransportException(this.upstream,
				envelope.method() + " was not sent: the server " + closed.exit().describe(), closed);
		return new SessionGoneException(this.upstream, envelope.method(), 0, evidence);
	}

	private @Nullable Duration lastRanFor() {
		Instant started = this.lastStartedAt;
		Instant ended = this.lastExitAt;
		if (started == null) {
			return null;
		}
		return (ended != null && ended.isAfter(started)) ? Duration.between(started, ended) : Duration.ZERO;
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

	/** One process and the session generation it serves. */
	private record Generation(long generation, StdioChannel channel) {
	}

	/** What the server sends besides responses, and the end of its process. */
	private final class ChannelEvents implements StdioChannel.Listener {

		@Override
		public void onMessage(StdioChannel channel, JsonRpcMessage message) {
			InboundMessages target = StdioTransport.this.listening;
			(target != null ? target : StdioTransport.this.latest).receive(message);
		}

		@Override
		public void onExit(StdioChannel channel, ExitStatus exit) {
			StdioTransport.this.lastExit = exit;
			StdioTransport.this.lastExitAt = StdioTransport.this.clock.instant();
			Generation running = StdioTransport.this.current;
			if (!StdioTransport.this.closed && running != null && running.channel() == channel) {
				logger.warn("[" + StdioTransport.this.upstream + "] the server " + exit.describe() + " (generation "
						+ running.generation() + "); the next request starts it again");
			}
		}

	}

}
