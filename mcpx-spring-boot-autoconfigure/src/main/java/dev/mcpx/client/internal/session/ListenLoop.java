package dev.mcpx.client.internal.session;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;

/**
 * Keeps one notification stream open to an upstream that announces list changes, so
 * that {@code notifications/*}{@code /list_changed} reach the client's listeners: the legacy
 * GET stream, opened when the server declared {@code listChanged}, or the modern
 * {@code subscriptions/listen} stream, each opened again when it drops. One daemon thread,
 * started by the first successful exchange with a server that announces list changes, so
 * an idle client, or one whose server announces none, holds no thread.
 */
public final class ListenLoop implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ListenLoop.class);

	/** First wait before opening a dropped stream again; doubles up to the maximum. */
	private static final Duration FIRST_BACKOFF = Duration.ofMillis(500);

	/** A server that keeps dropping the stream is asked again at most this often. */
	private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

	/**
	 * How long the first start waits for the stream to open when the server may send
	 * requests on it: a server sends a request unrelated to a client request only there, and
	 * drops it when no stream is open (2025-11-25 basic/transports §Listening for Messages
	 * from the Server).
	 */
	static final Duration FIRST_OPEN_WAIT = Duration.ofSeconds(2);

	/** How often a loop without a usable session looks again. */
	private static final Duration IDLE_POLL = Duration.ofSeconds(1);

	private final String upstream;

	private final ProtocolSession session;

	private final AtomicBoolean started = new AtomicBoolean();

	private volatile boolean closed;

	private volatile @Nullable Thread thread;

	private volatile @Nullable Closeable stream;

	/** The state of the stream opened last, to notice a stream opened on a new generation. */
	private volatile @Nullable SessionState lastOpened;

	/** Set while the stream is closed on purpose, to be opened again at once. */
	private volatile boolean restarting;

	/** The last state found not to announce list changes, so it is not checked again. */
	private volatile @Nullable SessionState declined;

	/** Resource updates come on the stream; told when it opened again after one broke. */
	private final Subscriptions subscriptions;

	/** Server log messages come on the stream when a level was asked for. */
	private final ServerLog serverLog;

	/**
	 * Whether the client answers server requests: then the stream is wanted in the legacy
	 * era, and the first start waits for it to open.
	 */
	private final boolean answersServerRequests;

	/** Counted down once the first stream opened, or its attempt ended. */
	private final CountDownLatch firstOpen = new CountDownLatch(1);

	/**
	 * Creates the loop of one client.
	 * @param upstream the upstream name
	 * @param session the client's session
	 * @param subscriptions the client's resource subscriptions, whose updates the stream
	 * carries and whose subscribers learn when they may have missed some
	 * @param serverLog the server's log messages, which the stream carries
	 * @param answersServerRequests whether the client answers the requests a server may send
	 * on the stream
	 */
	public ListenLoop(String upstream, ProtocolSession session, Subscriptions subscriptions, ServerLog serverLog,
			boolean answersServerRequests) {
		this.upstream = upstream;
		this.session = session;
		this.subscriptions = subscriptions;
		this.serverLog = serverLog;
		this.answersServerRequests = answersServerRequests;
	}

	/**
	 * Opens the stream again, with what it should carry now (a modern stream's filter names
	 * the subscribed resources); starts the loop if it is wanted and not running.
	 */
	public void restart() {
		this.restarting = true;
		Closeable open = this.stream;
		if (open != null) {
			try {
				open.close();
			}
			catch (IOException ex) {
				// Closing only unblocks the reader; the loop opens it again.
			}
		}
		this.declined = null;
		start();
	}

	/**
	 * Whether a stream is worth holding open: for list changes the server announces, and
	 * besides them, legacy resource updates come on the GET stream (2025-11-25
	 * server/resources §Subscriptions, when the server declared {@code subscribe}), modern
	 * ones on {@code subscriptions/listen}; a server asked for a log level sends its messages
	 * there too, and a server may send its requests there when the client declared it
	 * answers them.
	 */
	private boolean wanted(SessionState state) {
		if (announcesListChanges(state.capabilities())) {
			return true;
		}
		if (this.answersServerRequests && state.era() == ProtocolEra.LEGACY) {
			// 2025-11-25 basic/transports §Listening for Messages from the Server: requests
			// unrelated to a client request (an elicitation a tool makes without relating it)
			// arrive only on the GET stream.
			return true;
		}
		JsonNode capabilities = state.capabilities();
		if (this.subscriptions.active() && (state.era() == ProtocolEra.MODERN
				|| (capabilities != null && capabilities.path("resources").path("subscribe").asBoolean(false)))) {
			return true;
		}
		return this.serverLog.setsLevel() && capabilities != null && capabilities.has("logging");
	}

	/**
	 * Starts the loop unless it runs already.
	 */
	public void start() {
		if (this.closed || this.started.get()) {
			return;
		}
		SessionState state = this.session.current();
		if (state == null || state == this.declined) {
			return;
		}
		if (!wanted(state)) {
			// Nothing to listen for: no thread, until a new session announces changes.
			this.declined = state;
			return;
		}
		if (!this.started.compareAndSet(false, true)) {
			return;
		}
		Thread loop = new Thread(this::run, "mcpx-" + this.upstream + "-listen");
		loop.setDaemon(true);
		this.thread = loop;
		loop.start();
		if (this.answersServerRequests) {
			try {
				this.firstOpen.await(FIRST_OPEN_WAIT.toMillis(), TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void run() {
		Duration backoff = FIRST_BACKOFF;
		SessionState skipped = null;
		boolean broke = false;
		while (!this.closed) {
			SessionState opened = this.lastOpened;
			SessionState state = this.session.current();
			if (state == null || state == skipped || !wanted(state)) {
				sleep(IDLE_POLL);
				continue;
			}
			ListenOutcome outcome;
			// A modern stream opened on a new generation (a restarted stdio process) follows one
			// that ended with its process: what the old one would have carried is lost too.
			boolean afterBreak = broke || (opened != null && opened.era() == ProtocolEra.MODERN
					&& opened.generation() != state.generation());
			SessionState listening = state;
			try {
				outcome = this.session.listen(state, (stream) -> {
					this.stream = stream;
					this.lastOpened = listening;
					this.firstOpen.countDown();
					if (afterBreak) {
						this.subscriptions.mayHaveMissedUpdates();
					}
				});
			}
			catch (McpException ex) {
				logger.debug("[" + this.upstream + "] could not open the notification stream: " + ex.getMessage());
				outcome = ListenOutcome.BROKEN;
			}
			catch (RuntimeException ex) {
				// Whatever a server sends, listening goes on: one bad stream must not end it.
				logger.warn("[" + this.upstream + "] the notification stream failed: " + ex);
				outcome = ListenOutcome.BROKEN;
			}
			this.firstOpen.countDown();
			if (this.closed) {
				return;
			}
			if (this.restarting) {
				this.restarting = false;
				broke = false;
				continue;
			}
			broke = outcome == ListenOutcome.BROKEN;
			switch (outcome) {
				case NOT_OFFERED, SESSION_GONE -> {
					// Nothing to listen to on this state; a new session or era may offer it.
					skipped = state;
					backoff = FIRST_BACKOFF;
				}
				case ENDED -> {
					// Open it again, but never in a tight loop against a server that ends it at once.
					backoff = FIRST_BACKOFF;
					sleep(FIRST_BACKOFF);
				}
				case BROKEN -> {
					sleep(backoff);
					backoff = (backoff.compareTo(MAX_BACKOFF) < 0) ? backoff.multipliedBy(2) : MAX_BACKOFF;
				}
			}
		}
	}

	/**
	 * Whether the server declared {@code listChanged} for tools, prompts or resources
	 * (2025-11-25 basic/lifecycle §Capability Negotiation; 2026-07-28 server/discover).
	 */
	static boolean announcesListChanges(@Nullable JsonNode capabilities) {
		if (capabilities == null) {
			return false;
		}
		for (String kind : new String[] { "tools", "prompts", "resources" }) {
			if (capabilities.path(kind).path("listChanged").asBoolean(false)) {
				return true;
			}
		}
		return false;
	}

	private void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.closed = true;
		}
	}

	/**
	 * Stops listening: closes the open stream and ends the thread.
	 */
	@Override
	public void close() {
		this.closed = true;
		Closeable open = this.stream;
		if (open != null) {
			try {
				open.close();
			}
			catch (IOException ex) {
				// Closing only unblocks the reader.
			}
		}
		Thread loop = this.thread;
		if (loop != null) {
			// Also reaches a thread still waiting for the stream's headers.
			loop.interrupt();
			try {
				loop.join(Duration.ofSeconds(2).toMillis());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

}
