package dev.mcpx.client.internal.transport.http;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
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
 * <p>
 * A client that no exchange has used for the {@linkplain #idleRelease() idle release} is
 * released as well, with its pooled connections and its selector thread, and the next
 * exchange builds a new one. The JDK's own pool keeps an idle connection for
 * {@code jdk.httpclient.keepalive.timeout} seconds, 1,200 on Java 17 (30 on Java 25): about
 * 20 KB of heap and a socket for every upstream called once in the last twenty minutes
 * (docs/performance.md, "Idle heap"). An exchange still running (an event stream, a long
 * call) keeps its client: a client is released only while none is in flight.
 */
public final class SharedHttpClients implements AutoCloseable {

	/** The JDK's keep-alive on Java 25, used when the application sets none. */
	static final Duration DEFAULT_IDLE_RELEASE = Duration.ofSeconds(30);

	/** The least the releasing thread sleeps: idle clients are released up to this late. */
	private static final long MIN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	/**
	 * The holder of the clients that {@code McpClientBuilder} builds itself; their leases end
	 * with the clients that hold them. Declared after the constants its constructor reads.
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

	private final long idleNanos;

	/** Whether the releasing thread is alive (or about to be): at most one is. */
	private final AtomicBoolean releasing = new AtomicBoolean();

	/** The releasing thread, while it runs: woken when the holder is closed or a client leaves it. */
	private final AtomicReference<@Nullable Thread> releaser = new AtomicReference<>();

	private volatile boolean closed;

	/** How many times the releasing thread has looked at the clients. */
	private final AtomicInteger scans = new AtomicInteger();

	/** A holder whose clients are released after the {@linkplain #idleRelease() idle release}. */
	public SharedHttpClients() {
		this(idleRelease());
	}

	/**
	 * A holder whose clients are released after the given time unused.
	 * @param idleRelease how long a client may go unused before it is released
	 */
	SharedHttpClients(Duration idleRelease) {
		this.idleNanos = idleRelease.toNanos();
	}

	/**
	 * How long a shared client may go unused before it is released: the JDK's own keep-alive
	 * for idle connections, {@code jdk.httpclient.keepalive.timeout} in seconds, when the
	 * application sets it; otherwise {@link #DEFAULT_IDLE_RELEASE}, which is the JDK's default
	 * on Java 25 (Java 17's, twenty minutes, holds a connection to every upstream called in
	 * that time).
	 * @return the time
	 */
	static Duration idleRelease() {
		String seconds = System.getProperty("jdk.httpclient.keepalive.timeout");
		if (seconds != null) {
			try {
				long value = Long.parseLong(seconds.trim());
				if (value > 0) {
					return Duration.ofSeconds(value);
				}
			}
			catch (NumberFormatException ex) {
				// The JDK ignores a value it cannot read too, and keeps its default.
			}
		}
		return DEFAULT_IDLE_RELEASE;
	}

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
			this.closed = true;
			released = new ArrayList<>(this.entries.values());
			this.entries.clear();
		}
		released.forEach(Entry::shutdown);
		Thread thread = this.releaser.get();
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	private void returned(Entry entry) {
		synchronized (this) {
			if (--entry.leases != 0 || this.entries.get(entry.settings) != entry) {
				return;
			}
			this.entries.remove(entry.settings);
		}
		entry.shutdown();
		// It ends at once if that was the last client, instead of at its next deadline.
		Thread thread = this.releaser.get();
		if (thread != null) {
			LockSupport.unpark(thread);
		}
	}

	/**
	 * The releasing thread while it runs.
	 * @return the thread, or {@code null}
	 */
	@Nullable Thread releaser() {
		return this.releaser.get();
	}

	/**
	 * How many times the releasing thread has looked at the clients.
	 * @return the count
	 */
	int scans() {
		return this.scans.get();
	}

	/** Called once a client is built: makes sure a thread will release it when idle. */
	private void watchIdle() {
		if (!this.releasing.get() && this.releasing.compareAndSet(false, true)) {
			// Named as the shared client's workers are: the HTTP clients', not one upstream's.
			Thread thread = new Thread(this::releaseIdle, "HttpClient-mcpx-idle-release");
			thread.setDaemon(true);
			this.releaser.set(thread);
			thread.start();
		}
	}

	/**
	 * The releasing thread: sleeps until the first client could have gone unused for the
	 * idle release, releases those that have, and ends when no client is left (as the
	 * watchdog's thread does: an application whose upstreams are all idle holds no thread).
	 */
	private void releaseIdle() {
		try {
			while (!this.closed) {
				List<Entry> all;
				synchronized (this) {
					all = new ArrayList<>(this.entries.values());
				}
				this.scans.incrementAndGet();
				long now = System.nanoTime();
				long wait = Long.MAX_VALUE;
				boolean held = false;
				for (Entry entry : all) {
					HttpClient idle = entry.takeIfIdle(now, this.idleNanos);
					if (idle != null) {
						shutdown(idle);
					}
					else if (entry.client != null) {
						held = true;
						wait = Math.min(wait, entry.untilIdle(now, this.idleNanos));
					}
				}
				if (!held) {
					this.releasing.set(false);
					// A client built after the scan started a new thread, or finds this one
					// still running: the flag is read after the client is published.
					if (!anyBuilt() || !this.releasing.compareAndSet(false, true)) {
						return;
					}
					wait = MIN_WAIT_NANOS;
				}
				LockSupport.parkNanos(this, wait);
			}
			this.releasing.set(false);
		}
		finally {
			// No dead thread held by an idle holder; only this one: a later client may have
			// started the next already.
			this.releaser.compareAndSet(Thread.currentThread(), null);
		}
	}

	private synchronized boolean anyBuilt() {
		return this.entries.values().stream().anyMatch((entry) -> entry.client != null);
	}

	private final class Entry {

		private final Object settings;

		private final Supplier<HttpClient> factory;

		/** Guarded by the holder's lock. */
		private int leases;

		private volatile @Nullable HttpClient client;

		/** Exchanges acquired and not yet released: a client is not released under them. */
		private final AtomicInteger inFlight = new AtomicInteger();

		/** When the last exchange ended, or the client was built ({@link System#nanoTime()}). */
		private volatile long lastUsed;

		Entry(Object settings, Supplier<HttpClient> factory) {
			this.settings = settings;
			this.factory = factory;
		}

		/**
		 * The client for one exchange, counted in flight until {@link #release()}. The count
		 * is raised before the client is read again: either {@link #takeIfIdle} sees the
		 * exchange and keeps the client, or this sees the client gone and takes the next one.
		 */
		HttpClient acquire() {
			while (true) {
				HttpClient current = this.client;
				if (current == null) {
					current = build();
				}
				this.inFlight.incrementAndGet();
				if (this.client == current) {
					return current;
				}
				this.inFlight.decrementAndGet();
			}
		}

		void release() {
			// The time first: whoever sees no exchange in flight sees when the last one ended.
			this.lastUsed = System.nanoTime();
			this.inFlight.decrementAndGet();
		}

		private HttpClient build() {
			HttpClient built;
			synchronized (this) {
				built = this.client;
				if (built != null) {
					return built;
				}
				built = this.factory.get();
				this.lastUsed = System.nanoTime();
				this.client = built;
			}
			watchIdle();
			return built;
		}

		/**
		 * How long until the client could be idle: the idle time when an exchange is in flight
		 * (an event stream may run for hours; its end is not signalled to the releasing
		 * thread, so it looks again then), else what is left of it since the last exchange.
		 */
		long untilIdle(long now, long idleNanos) {
			if (this.inFlight.get() != 0) {
				return idleNanos;
			}
			return Math.max(MIN_WAIT_NANOS, this.lastUsed + idleNanos - now);
		}

		/**
		 * Takes the client away if no exchange is in flight on it and none ended within the
		 * idle time; the next exchange builds a new one.
		 * @return the client taken, to be shut down, or {@code null}
		 */
		synchronized @Nullable HttpClient takeIfIdle(long now, long idleNanos) {
			HttpClient current = this.client;
			if (current == null || this.inFlight.get() != 0 || now - this.lastUsed < idleNanos) {
				return null;
			}
			this.client = null;
			if (this.inFlight.get() != 0) {
				// An exchange counted itself after the check above: it uses this client.
				this.client = current;
				return null;
			}
			return current;
		}

		/** Shuts the client down for good; the entry has left the holder. */
		void shutdown() {
			HttpClient built;
			synchronized (this) {
				built = this.client;
			}
			if (built != null) {
				SharedHttpClients.shutdown(built);
			}
		}

	}

	private static void shutdown(HttpClient client) {
		if (client instanceof AutoCloseable closeable) {
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

	/**
	 * One upstream's share of a client: the client, built on first use, until closed.
	 */
	public final class Lease implements JdkClientSource, AutoCloseable {

		private final Entry entry;

		private boolean closed;

		Lease(Entry entry) {
			this.entry = entry;
		}

		/**
		 * The shared client, built by the first lease that asks, or again after the idle
		 * release; counted in flight until {@link #release()}.
		 * @return the client
		 */
		@Override
		public HttpClient acquire() {
			return this.entry.acquire();
		}

		@Override
		public void release() {
			this.entry.release();
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
