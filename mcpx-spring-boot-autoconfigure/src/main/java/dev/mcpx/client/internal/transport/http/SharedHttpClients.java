package dev.mcpx.client.internal.transport.http;

import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * JDK {@link HttpClient}s shared by the upstreams whose HTTP settings are equal. Each JDK
 * client has a selector thread, worker threads and a connection pool of its own, so one per
 * upstream made an application's threads and idle heap grow with its upstreams; the pool
 * is keyed by host and port, so upstreams that share a client keep their connections apart
 * all the same (docs/architecture.md, "The transport seam").
 * <p>
 * An upstream holds a {@link Lease} on the client of its settings. The client is built when
 * the first lease asks for it, not before (an upstream that is never called costs no
 * client), and released when its last lease is closed: closed from Java 21 on, and left to
 * the garbage collector before. Closing the holder releases every client at once.
 */
public final class SharedHttpClients implements AutoCloseable {

	/**
	 * The holder of the clients that {@code McpClientBuilder} builds itself; their leases end
	 * with the clients that hold them.
	 */
	public static final SharedHttpClients PROCESS = new SharedHttpClients();

	/**
	 * How long a shared client's idle worker thread lives: as long as the watchdog's. The
	 * JDK's own pool keeps them 60 s, so an application whose upstreams had just been called
	 * held a varying number of idle workers for a minute.
	 */
	static final long WORKER_KEEP_ALIVE_SECONDS = 5;

	private static final AtomicInteger workerPools = new AtomicInteger();

	private final Map<Object, Entry> entries = new HashMap<>();

	/**
	 * The worker threads of one shared JDK client: as many as it asks for at once (its own
	 * default pool is unbounded too: a bound could stall the exchanges that wait on it),
	 * daemons, each ended after {@value #WORKER_KEEP_ALIVE_SECONDS} s idle, so that idle
	 * upstreams hold no thread but their client's selector. Named as the JDK names its own
	 * ({@code HttpClient-…-Worker-…}): they are the HTTP client's, not a client's of mcpx,
	 * and outlive the upstream that last used them by that keep-alive.
	 * @return a new executor for one client
	 */
	public static Executor workers() {
		int pool = workerPools.incrementAndGet();
		AtomicInteger count = new AtomicInteger();
		return new ThreadPoolExecutor(0, Integer.MAX_VALUE, WORKER_KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
				new SynchronousQueue<>(), (task) -> {
					Thread thread = new Thread(task, "HttpClient-mcpx-" + pool + "-Worker-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
	}

	/**
	 * Takes a lease on the client of the given settings.
	 * @param settings the settings the client is built with, compared by {@code equals}
	 * @param factory builds the client on first use
	 * @return the lease, to be closed when the upstream is closed
	 */
	public synchronized Lease lease(Object settings, Supplier<HttpClient> factory) {
		Entry entry = this.entries.computeIfAbsent(settings, (key) -> new Entry(key, factory));
		entry.leases++;
		return new Lease(entry);
	}

	/**
	 * The clients built and not yet released.
	 * @return how many
	 */
	public synchronized int builtClients() {
		return (int) this.entries.values().stream().filter((entry) -> entry.client != null).count();
	}

	/** Releases every client, leased or not: later requests on them fail. */
	@Override
	public void close() {
		List<Entry> released;
		synchronized (this) {
			released = new ArrayList<>(this.entries.values());
			this.entries.clear();
		}
		released.forEach(Entry::release);
	}

	private synchronized void returned(Entry entry) {
		if (--entry.leases == 0 && this.entries.get(entry.settings) == entry) {
			this.entries.remove(entry.settings);
			entry.release();
		}
	}

	private static final class Entry {

		private final Object settings;

		private final Supplier<HttpClient> factory;

		/** Guarded by the holder's lock. */
		private int leases;

		private volatile @Nullable HttpClient client;

		Entry(Object settings, Supplier<HttpClient> factory) {
			this.settings = settings;
			this.factory = factory;
		}

		HttpClient client() {
			HttpClient built = this.client;
			if (built == null) {
				synchronized (this) {
					built = this.client;
					if (built == null) {
						built = this.factory.get();
						this.client = built;
					}
				}
			}
			return built;
		}

		void release() {
			HttpClient built;
			synchronized (this) {
				built = this.client;
			}
			if (built instanceof AutoCloseable closeable) {
				// From Java 21 the client can be closed, with its pooled connections and thread;
				// on Java 17 they go when the client is garbage-collected.
				try {
					closeable.close();
				}
				catch (Exception ex) {
					// Releasing the HTTP client cannot fail in a way the caller could act on.
				}
			}
		}

	}

	/**
	 * One upstream's share of a client: the client, built on first use, until closed.
	 */
	public final class Lease implements Supplier<HttpClient>, AutoCloseable {

		private final Entry entry;

		private boolean closed;

		Lease(Entry entry) {
			this.entry = entry;
		}

		/**
		 * The shared client, built by the first lease that asks.
		 * @return the client
		 */
		@Override
		public HttpClient get() {
			return this.entry.client();
		}

		/** Returns the lease once; the client is released when its last lease is returned. */
		@Override
		public void close() {
			synchronized (SharedHttpClients.this) {
				if (this.closed) {
					return;
				}
				this.closed = true;
			}
			returned(this.entry);
		}

	}

}
