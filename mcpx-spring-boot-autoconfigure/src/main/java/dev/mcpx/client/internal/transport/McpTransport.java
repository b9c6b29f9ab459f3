package dev.mcpx.client.internal.transport;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;

/**
 * Moves JSON-RPC messages between the client and one upstream: the seam between the
 * session layer, which knows MCP, and the wire, which knows HTTP or a child process. Each
 * call makes exactly one attempt; trying again is the recovery layer's decision (see
 * {@code docs/architecture.md}, "The transport seam").
 * <p>
 * Messages are encoded JSON-RPC (UTF-8 bytes of one message). What arrives for the client
 * is one of three things, whatever the transport: the response to a pending request (the
 * return value of {@link #request}), a notification, or a request of the server (both handed
 * to the {@link InboundMessages} of the exchange they arrived on, or of the listen stream).
 * <p>
 * Failures: an {@link IOException} when the message or its response was lost on the way
 * ({@link NotSentException}: provably never delivered; {@link StreamBrokenException}: the
 * response stream ended before the response, possibly resumable), an {@link McpException}
 * when the upstream answered with a refusal, and {@link SessionGoneException} when it no
 * longer knows the session the request was sent on (and so did not act on it).
 */
public interface McpTransport extends AutoCloseable {

	/**
	 * Makes the channel of a session generation ready before its handshake. Streamable HTTP
	 * has no channel to make (each message is its own exchange); a stdio transport starts
	 * the child process unless the generation's process runs already.
	 * @param generation the session generation about to be opened
	 * @throws IOException if the channel cannot be made
	 */
	void open(long generation) throws IOException;

	/**
	 * Sends one request and reads until its response, handing every other message that
	 * arrives for it on the way to {@code inbound}.
	 * @param id the request's JSON-RPC id, to recognize its response
	 * @param message the encoded request
	 * @param envelope what the message carries besides its JSON
	 * @param inbound receives notifications and server requests that arrive before the
	 * response
	 * @param deadline enforces the request's timeout; the transport attaches what a blocked
	 * read waits on
	 * @return the response, with what the transport learned from it
	 * @throws IOException if the request or its response was lost
	 */
	Received request(long id, byte[] message, Envelope envelope, InboundMessages inbound, Watchdog.Guard deadline)
			throws IOException;

	/**
	 * Reads on from where a request's response stream broke (2025-11-25 basic/transports
	 * §Resumability and Redelivery). Only a transport that issued the {@link Resumption}
	 * can resume from it.
	 * @param from where the stream broke
	 * @param envelope what the resumption carries besides its JSON
	 * @param inbound receives notifications and server requests
	 * @param deadline enforces what is left of the request's timeout
	 * @return the response
	 * @throws IOException if resuming failed; a {@link StreamBrokenException} says whether
	 * and from where it may be resumed again
	 */
	Received resume(Resumption from, Envelope envelope, InboundMessages inbound, Watchdog.Guard deadline)
			throws IOException;

	/**
	 * Sends a notification or a response to a server request, and returns once the
	 * upstream took it.
	 * @param message the encoded message
	 * @param envelope what the message carries besides its JSON
	 * @param deadline enforces the bound of sending it
	 * @throws IOException if it was lost
	 */
	void send(byte[] message, Envelope envelope, Watchdog.Guard deadline) throws IOException;

	/**
	 * Holds the upstream's stream of unsolicited messages open (legacy Streamable HTTP: a
	 * GET; modern: a {@code subscriptions/listen} request; stdio: the channel itself) and
	 * hands what arrives to {@code inbound} until it ends. No deadline applies; closing what
	 * {@code opened} receives ends it.
	 * @param listenRequest the encoded listen request, or {@code null} where the transport
	 * has a stream of its own
	 * @param envelope what the listen request carries besides its JSON
	 * @param inbound receives notifications and server requests
	 * @param opened receives what to close to end the stream
	 * @return how the stream ended
	 * @throws IOException if it could not be opened
	 */
	ListenOutcome listen(byte @Nullable [] listenRequest, Envelope envelope, InboundMessages inbound,
			Consumer<Closeable> opened) throws IOException;

	/**
	 * Ends a session generation's channel, bounded, errors ignored (Streamable HTTP: a DELETE,
	 * 2025-11-25 basic/transports §Session Management, rule 5; stdio: closes the process's
	 * input and waits for it to exit).
	 * @param envelope the session's envelope
	 * @param deadline the bound
	 * @return a status for the log: the HTTP status, the exit code, or {@code -1} when it failed
	 */
	int end(Envelope envelope, Watchdog.Guard deadline);

	/**
	 * The values this transport sends that a server's text must never repeat (header
	 * values, for HTTP), gathered only when asked.
	 * @param envelope the envelope whose values are asked for
	 * @return the values
	 */
	Iterable<String> secrets(Envelope envelope);

	/**
	 * Whether abandoning a request's exchange tells the server to stop (modern Streamable
	 * HTTP: closing the response stream is the cancellation). A transport with one shared
	 * channel cannot: the client MUST send {@code notifications/cancelled} in every era
	 * (2026-07-28 basic/transports/stdio §Cancellation).
	 * @return {@code true} when closing cancels
	 */
	default boolean cancelsByClosing() {
		return true;
	}

	/**
	 * Where this transport reaches, safe to show (host and port, or the command's name).
	 * @return the destination
	 */
	String destination();

	/**
	 * Releases the transport's resources (connections, threads, the child process).
	 */
	@Override
	void close();

}
