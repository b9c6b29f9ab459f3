package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;

import org.jspecify.annotations.Nullable;

/**
 * A response body read as a blocking stream that an interrupt ends. The JDK's own
 * {@code BodyHandlers.ofInputStream()} swallows an interrupt of its reader and waits on, so
 * an application that interrupts a caller would wait for the request's timeout; this one
 * throws {@link InterruptedIOException} with the interrupt flag set, which the exchange
 * reports as a cancellation (2025-11-25 basic/utilities/cancellation). Closing it from
 * another thread (the watchdog's deadline) ends a blocked read too.
 * <p>
 * A few lists of buffers are requested ahead of the reader ({@link #WINDOW}), so that what
 * has already arrived (an event and the end of its stream, usually) waits in the queue
 * rather than behind a request the reader has yet to make: the reader parks only when nothing
 * is there. A body that waits for its first bytes ({@link #awaitingFirstBytes()}) is handed
 * over only when they, its end or its failure arrive, so a caller waiting for a response
 * wakes once for its headers and its first event together.
 */
final class InterruptibleBody extends InputStream implements HttpResponse.BodySubscriber<InputStream> {

	/** What the publisher or {@link #close()} leaves for the reader once the body ends. */
	private static final Object END = new Object();

	private static final Object CLOSED = new Object();

	/**
	 * How many lists of buffers may wait unread: enough for an event and the end of its
	 * stream, little enough that an endless stream read slowly holds no more than that.
	 */
	static final int WINDOW = 4;

	private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();

	private volatile Flow.@Nullable Subscription subscription;

	private Iterator<ByteBuffer> buffers = List.<ByteBuffer>of().iterator();

	private ByteBuffer current = ByteBuffer.allocate(0);

	private boolean ended;

	private volatile boolean closed;

	/** Completed once the body is handed over: at once, or when its first bytes arrive. */
	private final CompletableFuture<InputStream> handedOver = new CompletableFuture<>();

	private InterruptibleBody(boolean awaitFirstBytes) {
		if (!awaitFirstBytes) {
			this.handedOver.complete(this);
		}
	}

	/**
	 * A body handed over with its headers: the caller reads it while it arrives, and may
	 * act on the headers before anything else arrives (a GET stream, which may stay silent
	 * for long, is open once its headers are in).
	 * @return the body
	 */
	static InterruptibleBody atHeaders() {
		return new InterruptibleBody(false);
	}

	/**
	 * A body handed over with its first bytes, or its end or failure, whichever comes first:
	 * for a caller that waits for what the body says anyway (a POST's response). Until then
	 * the caller's wait is the JDK client's wait for the response, which an interrupt ends.
	 * @return the body
	 */
	static InterruptibleBody awaitingFirstBytes() {
		return new InterruptibleBody(true);
	}

	@Override
	public CompletionStage<InputStream> getBody() {
		return this.handedOver;
	}

	@Override
	public void onSubscribe(Flow.Subscription subscription) {
		this.subscription = subscription;
		if (this.closed) {
			subscription.cancel();
			return;
		}
		subscription.request(WINDOW);
	}

	@Override
	public void onNext(List<ByteBuffer> item) {
		this.queue.add(item);
		this.handedOver.complete(this);
	}

	@Override
	public void onError(Throwable throwable) {
		this.queue.add(throwable);
		this.handedOver.complete(this);
	}

	@Override
	public void onComplete() {
		this.queue.add(END);
		this.handedOver.complete(this);
	}

	@Override
	public int read() throws IOException {
		byte[] one = new byte[1];
		int read = read(one, 0, 1);
		return (read == -1) ? -1 : (one[0] & 0xFF);
	}

	@Override
	public int read(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		while (!this.current.hasRemaining()) {
			if (this.buffers.hasNext()) {
				this.current = this.buffers.next();
				continue;
			}
			if (this.ended) {
				return -1;
			}
			if (!next()) {
				return -1;
			}
		}
		int count = Math.min(length, this.current.remaining());
		this.current.get(bytes, offset, count);
		return count;
	}

	/** Waits for the next list of buffers; {@code false} at the end of the body. */
	@SuppressWarnings("unchecked")
	private boolean next() throws IOException {
		if (this.closed) {
			throw new IOException("the response body is closed");
		}
		Object item;
		try {
			item = this.queue.take();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			close();
			throw new InterruptedIOException("interrupted while reading the response");
		}
		if (item == END) {
			this.ended = true;
			return false;
		}
		if (item == CLOSED) {
			throw new IOException("the response body is closed");
		}
		if (item instanceof Throwable failure) {
			throw (failure instanceof IOException io) ? io : new IOException(failure);
		}
		this.buffers = ((List<ByteBuffer>) item).iterator();
		// items arrive only after onSubscribe (Reactive Streams §1.9)
		Objects.requireNonNull(this.subscription, "subscription").request(1);
		return true;
	}

	@Override
	public int available() {
		return this.current.remaining();
	}

	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		Flow.Subscription open = this.subscription;
		if (open != null) {
			open.cancel();
		}
		this.queue.add(CLOSED);
	}

}
