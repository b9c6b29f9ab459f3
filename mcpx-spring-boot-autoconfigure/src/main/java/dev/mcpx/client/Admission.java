package dev.mcpx.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.mcpx.client.error.McpClientClosedException;

/**
 * Which calls a client still takes, and the drain of a client that leaves
 * {@link McpClients}: once the drain starts, a call that starts fails with
 * {@link McpClientClosedException} and sends nothing, while the calls in flight finish
 * within their own timeouts; the client closes when the last of them ends (docs/architecture.md,
 * "The live registry").
 */
final class Admission {

	/** Added to the in-flight count once the client stops taking calls. */
	private static final int CLOSING = 1 << 30;

	private final String upstream;

	private final AtomicInteger state = new AtomicInteger();

	private final AtomicBoolean drained = new AtomicBoolean();

	private final CompletableFuture<Void> closed = new CompletableFuture<>();

	private volatile String why = "close() was called";

	private volatile Runnable close = () -> {
	};

	Admission(String upstream) {
		this.upstream = upstream;
	}

	/**
	 * Takes a call, or refuses it when the client no longer takes calls.
	 * @throws McpClientClosedException when it does not
	 */
	void enter() {
		if (this.state.incrementAndGet() >= CLOSING) {
			exit();
			throw new McpClientClosedException(this.upstream, this.why);
		}
	}

	/** A call taken has ended; the last one to end closes a draining client. */
	void exit() {
		if (this.state.decrementAndGet() == CLOSING && this.drained.compareAndSet(false, true)) {
			// off the caller's thread: closing sends a DELETE, bounded to about 2 s
			Thread closer = new Thread(this.close, "mcpx-drain-" + this.upstream);
			closer.setDaemon(true);
			closer.start();
		}
	}

	/** Whether calls are still taken. */
	boolean isOpen() {
		return this.state.get() < CLOSING;
	}

	/**
	 * Stops taking calls, and closes the client once the calls in flight have ended: at once
	 * on this thread when none is in flight.
	 * @param why why the client is closed, for the refusal's message
	 * @param close closes the client
	 * @return completes when the client is closed
	 */
	CompletableFuture<Void> drain(String why, Runnable close) {
		this.why = why;
		this.close = close;
		int now = this.state.updateAndGet((s) -> (s >= CLOSING) ? s : s + CLOSING);
		if (now == CLOSING && this.drained.compareAndSet(false, true)) {
			close.run();
		}
		return this.closed;
	}

	/** Stops taking calls at once, for a close without a drain; calls in flight fail as the session closes. */
	void stop() {
		this.drained.set(true);
		this.state.updateAndGet((s) -> (s >= CLOSING) ? s : s + CLOSING);
	}

	/** The client is closed. */
	void closed() {
		this.closed.complete(null);
	}

	/**
	 * Completes when the client is closed.
	 * @return the future
	 */
	CompletableFuture<Void> whenClosed() {
		return this.closed;
	}

}
