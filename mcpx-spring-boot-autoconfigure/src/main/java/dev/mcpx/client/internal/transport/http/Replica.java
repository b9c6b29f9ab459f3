package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

import dev.mcpx.client.internal.transport.NotSentException;

/**
 * One instance of a replicated upstream ({@link ReplicatedTransport}): its transport, the
 * exchanges it carries now, and until when it is passed over.
 */
final class Replica {

	final URI uri;

	final HttpTransport transport;

	/** Exchanges in flight; {@code -1} once retired, when no exchange may start. */
	private final AtomicInteger inFlight = new AtomicInteger();

	volatile long passedOverUntil;

	Replica(URI uri, HttpTransport transport) {
		this.uri = uri;
		this.transport = transport;
	}

	boolean passedOver(long now) {
		long until = this.passedOverUntil;
		return until != 0 && until - now > 0;
	}

	/** Retires an instance that carries nothing: no exchange starts on it after. */
	boolean retire() {
		return this.inFlight.compareAndSet(0, -1);
	}

	<T> T call(Exchange<T> exchange) throws IOException {
		int carried;
		do {
			carried = this.inFlight.get();
			if (carried < 0) {
				// Left the live set while this message was on its way to it: nothing was sent.
				throw new NotSentException(new ConnectException(shown(this.uri) + " has left"));
			}
		}
		while (!this.inFlight.compareAndSet(carried, carried + 1));
		try {
			return exchange.with(this.transport);
		}
		finally {
			this.inFlight.decrementAndGet();
		}
	}

	/** Host and port: what may be shown of an instance. */
	static String shown(URI uri) {
		return uri.getHost() + ((uri.getPort() >= 0) ? ":" + uri.getPort() : "");
	}

	/** One exchange with one instance's transport. */
	@FunctionalInterface
	interface Exchange<T> {

		T with(HttpTransport transport) throws IOException;

	}

}
