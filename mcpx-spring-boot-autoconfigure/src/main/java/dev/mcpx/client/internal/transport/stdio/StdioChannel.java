package dev.mcpx.client.internal.transport.stdio;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One server process seen as a channel of newline-delimited JSON-RPC messages (2025-11-25
 * basic/transports §stdio; 2026-07-28 basic/transports/stdio): messages go to its stdin one
 * per line, and a reader thread takes its stdout apart, completing the pending request a
 * response answers and handing every other message to the listener. One channel per
 * process: when the process ends, every pending request fails with a
 * {@link ChannelClosedException} naming the exit, and the channel is never used again.
 */
public final class StdioChannel {

	private static final Log logger = LogFactory.getLog(StdioChannel.class);

	/** The skipped lines warned of one by one; then one warning per thousand. */
	static final int SKIPPED_LINES_WARNED = 5;

	private final String upstream;

	private final ChildProcess process;

	private final JsonRpc jsonRpc;

	private final int maxMessageBytes;

	private final Listener listener;

	private final Map<Long, CompletableFuture<JsonRpcMessage.Response>> pending = new ConcurrentHashMap<>();

	private final AtomicLong skippedLines = new AtomicLong();

	private final CompletableFuture<ExitStatus> exit = new CompletableFuture<>();

	private volatile @Nullable String stopReason;

	private StdioChannel(String upstream, ChildProcess process, JsonRpc jsonRpc, int maxMessageBytes,
			Listener listener) {
		this.upstream = upstream;
		this.process = process;
		this.jsonRpc = jsonRpc;
		this.maxMessageBytes = maxMessageBytes;
		this.listener = listener;
	}

	/**
	 * Starts the server process and reads its stdout on a thread of its own.
	 * @param upstream the upstream name
	 * @param command what to start
	 * @param jsonRpc the message codec
	 * @param maxMessageBytes the longest line accepted; a longer one stops the process
	 * @param listener hears the server's requests and notifications, and the exit
	 * @return the open channel
	 * @throws IOException if the process cannot be started
	 */
	public static StdioChannel open(String upstream, LaunchSpec command, JsonRpc jsonRpc, int maxMessageBytes,
			Listener listener) throws IOException {
		ChildProcess process = ChildProcess.start(upstream, command);
		StdioChannel channel = new StdioChannel(upstream, process, jsonRpc, maxMessageBytes, listener);
		Thread reader = new Thread(channel::read, "mcpx-" + upstream + "-stdout-" + process.pid());
		reader.setDaemon(true);
		reader.start();
		return channel;
	}

	/**
	 * The process id.
	 * @return the pid
	 */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * When the process started.
	 * @return the start
	 */
	public Instant startedAt() {
		return this.process.startedAt();
	}

	/**
	 * How the process ended.
	 * @return the exit, absent while it runs
	 */
	public @Nullable ExitStatus exit() {
		return this.exit.getNow(null);
	}

	/**
	 * Completes when the process has ended and every pending request has failed.
	 * @return the exit, once known
	 */
	public CompletableFuture<ExitStatus> onExit() {
		return this.exit;
	}

	/**
	 * Lines of stdout that were not JSON-RPC messages and were skipped.
	 * @return the count
	 */
	public long skippedLines() {
		return this.skippedLines.get();
	}

	/**
	 * Sends a request and returns the future of its response.
	 * @param id the request's id, unique for the channel's life
	 * @param message the encoded request, one line
	 * @return completes with the response, or exceptionally with a
	 * {@link ChannelClosedException} when the process ends first
	 * @throws ChannelClosedException if the process had already ended, or stopped reading
	 * its stdin: the server never read the request
	 */
	public CompletableFuture<JsonRpcMessage.Response> request(long id, byte[] message) throws ChannelClosedException {
		CompletableFuture<JsonRpcMessage.Response> response = new CompletableFuture<>();
		this.pending.put(id, response);
		// Registered before the exit is checked, and the exit is set before pending requests
		// are failed: a request is either refused here or failed by the reader, never lost.
		ExitStatus ended = exit();
		if (ended != null) {
			this.pending.remove(id);
			throw new ChannelClosedException(ended, false, null);
		}
		try {
			write(message);
		}
		catch (IOException ex) {
			this.pending.remove(id);
			// A closed pipe means nobody reads the other end: the server cannot have read it.
			throw new ChannelClosedException(awaitExit(), false, ex);
		}
		return response;
	}

	/**
	 * Stops waiting for a request's response (the caller gave up on it).
	 * @param id the request's id
	 */
	public void forget(long id) {
		this.pending.remove(id);
	}

	/**
	 * Sends a notification, or a response to a server request.
	 * @param message the encoded message, one line
	 * @throws ChannelClosedException if the process stopped reading its stdin
	 */
	public void send(byte[] message) throws ChannelClosedException {
		ExitStatus ended = exit();
		if (ended != null) {
			throw new ChannelClosedException(ended, false, null);
		}
		try {
			write(message);
		}
		catch (IOException ex) {
			throw new ChannelClosedException(awaitExit(), false, ex);
		}
	}

	/**
	 * Stops the process at once (SIGKILL to its tree), for a reason that its exit names.
	 * @param reason why, for example a line over the size limit
	 */
	public void abort(String reason) {
		if (this.stopReason == null) {
			this.stopReason = reason;
		}
		this.process.kill();
	}

	/**
	 * Ends the process as the spec asks: stdin closed, then SIGTERM, then SIGKILL, for its
	 * whole tree; waits for the reader to fail what is pending.
	 */
	public void close() {
		if (this.stopReason == null) {
			this.stopReason = "the client closed";
		}
		this.process.shutdown();
		awaitExit();
	}

	private void write(byte[] message) throws IOException {
		for (byte b : message) {
			if (b == '\n' || b == '\r') {
				// 2025-11-25 basic/transports §stdio: messages MUST NOT contain embedded newlines.
				throw new IllegalArgumentException("a stdio message must not contain a line break");
			}
		}
		this.process.writeLine(message);
	}

	private ExitStatus awaitExit() {
		try {
			return this.exit.get(ChildProcess.SHUTDOWN_STEP.toMillis() * 4, java.util.concurrent.TimeUnit.MILLISECONDS);
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			return new ExitStatus(pid(), -1, "it stopped reading its stdin");
		}
	}

	private void read() {
		LineReader lines = new LineReader(this.process.stdout(), this.maxMessageBytes, false);
		try {
			for (byte[] line = lines.next(); line != null; line = lines.next()) {
				this.process.noteDescendants();
				if (line.length > 0) {
					accept(line);
				}
			}
		}
		catch (LineTooLongException ex) {
			logger.warn("[" + this.upstream + "] the server process " + pid() + " wrote a line over the limit of "
					+ ex.limit() + " bytes (max-message-size); stopping it");
			abort("it wrote a line over the limit of " + ex.limit() + " bytes (max-message-size)");
		}
		catch (IOException ex) {
			// The stream broke: the process is ending.
		}
		catch (RuntimeException ex) {
			logger.warn("[" + this.upstream + "] reading the server process " + pid() + " failed; stopping it", ex);
			abort("reading its stdout failed: " + ex);
		}
		finish();
	}

	private void accept(byte[] line) {
		JsonRpcMessage message;
		JsonNode json = null;
		try {
			json = this.jsonRpc.parse(line);
			message = this.jsonRpc.read(json);
		}
		catch (JacksonException | JsonRpc.MalformedMessageException | IllegalArgumentException ex) {
			if (!failsPending(json, ex)) {
				skipped(line.length);
			}
			return;
		}
		if (message instanceof JsonRpcMessage.Response response) {
			CompletableFuture<JsonRpcMessage.Response> waiting = (response.id().isIntegralNumber())
					? this.pending.remove(response.id().longValue()) : pendingByText(response.id());
			if (waiting != null) {
				waiting.complete(response);
			}
			else {
				logger.debug("[" + this.upstream + "] ignored a response to no pending request");
			}
			return;
		}
		try {
			this.listener.onMessage(this, message);
		}
		catch (RuntimeException ex) {
			logger.warn("[" + this.upstream + "] handling a server message failed", ex);
		}
	}

	/**
	 * A malformed message that answers a pending request (an object with its {@code id} and
	 * a {@code result} or an {@code error}, whatever their shape) fails that request at once.
	 */
	private boolean failsPending(@Nullable JsonNode json, Exception problem) {
		if (json == null || !json.isObject() || !(json.has("error") || json.has("result")) || json.has("method")) {
			return false;
		}
		JsonNode id = json.get("id");
		CompletableFuture<JsonRpcMessage.Response> waiting = (id == null) ? null
				: (id.isIntegralNumber() && id.canConvertToLong()) ? this.pending.remove(id.longValue())
						: pendingByText(id);
		if (waiting == null) {
			return false;
		}
		waiting.completeExceptionally(new MalformedResponseException(problem.getMessage()));
		return true;
	}

	private @Nullable CompletableFuture<JsonRpcMessage.Response> pendingByText(JsonNode id) {
		if (id.isString()) {
			try {
				return this.pending.remove(Long.parseLong(id.stringValue()));
			}
			catch (NumberFormatException ex) {
				return null;
			}
		}
		return null;
	}

	/**
	 * 2025-11-25 basic/transports §stdio: the server MUST NOT write anything to stdout that
	 * is not a valid MCP message. A client is lenient: such a line (a banner, a stray log
	 * line) is skipped and counted, and warned of without flooding the log.
	 */
	private void skipped(int length) {
		long count = this.skippedLines.incrementAndGet();
		if (count <= SKIPPED_LINES_WARNED || count % 1000 == 0) {
			logger.warn("[" + this.upstream + "] skipped a line of " + length + " bytes on the stdout of server process "
					+ pid() + " that is not a JSON-RPC message (" + count + " so far); stdout is for MCP messages only");
		}
	}

	/** The stdout ended: the process ended, or closed its stdout and is stopped. */
	private void finish() {
		int code = this.process.awaitExit(ChildProcess.SHUTDOWN_STEP);
		String reason = this.stopReason;
		if (code < 0) {
			reason = (reason != null) ? reason : "it closed its stdout";
			this.process.kill();
			code = this.process.awaitExit(ChildProcess.SHUTDOWN_STEP);
		}
		ExitStatus status = new ExitStatus(pid(), code, reason);
		this.exit.complete(status);
		ChannelClosedException closed = new ChannelClosedException(status, true, null);
		for (Long id : this.pending.keySet()) {
			CompletableFuture<JsonRpcMessage.Response> waiting = this.pending.remove(id);
			if (waiting != null) {
				waiting.completeExceptionally(closed);
			}
		}
		try {
			this.listener.onExit(this, status);
		}
		catch (RuntimeException ex) {
			logger.warn("[" + this.upstream + "] handling the exit of server process " + pid() + " failed", ex);
		}
	}

	/**
	 * Hears what a server process sends besides responses, and its end.
	 */
	public interface Listener {

		/**
		 * A request or notification from the server, on the reader thread.
		 * @param channel the channel it came on
		 * @param message the message
		 */
		void onMessage(StdioChannel channel, JsonRpcMessage message);

		/**
		 * The process ended; its pending requests have failed.
		 * @param channel the channel
		 * @param exit how the process ended
		 */
		void onExit(StdioChannel channel, ExitStatus exit);

	}

	@Override
	public String toString() {
		return "StdioChannel[pid=" + pid() + ", exit=" + exit() + "]";
	}

}
