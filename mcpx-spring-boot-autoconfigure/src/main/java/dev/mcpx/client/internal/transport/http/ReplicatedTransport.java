package dev.mcpx.client.internal.transport.http;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.internal.protocol.McpMethods;
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

/**
 * Streamable HTTP to one upstream served by several interchangeable instances, each reached
 * through an {@link HttpTransport} of its own. The instance is chosen here, below the
 * session, so the session and the recovery loop above are the same as for one URL
 * (docs/architecture.md, "Replicated upstreams"):
 * <ul>
 * <li>a legacy session lives on one instance: the generation an {@code initialize} opens is
 * pinned to the instance it went to, and every message of that generation goes there
 * (2025-11-25 basic/transports §Session Management: the session id means something to that
 * server only). When the instance has left the live set, or refuses the connection, a
 * message that carried the session fails as {@link SessionGoneException} (nothing reached a
 * server): the recovery loop renews the session once for all its callers, and the
 * {@code initialize} of the next generation goes to another live instance;</li>
 * <li>a modern request has no session (2026-07-28 basic/lifecycle): each goes to the next
 * live instance, round robin, or where the application chooses;</li>
 * <li>a connection an instance refuses carried nothing, so an {@code initialize} or a modern
 * request goes to the next instance at once, as OkHttp's route selector tries the next
 * address: choosing where a request goes is not an attempt at the upstream, and the recovery
 * loop above keeps its one home. The refusing instance is passed over for
 * {@link #PASSED_OVER} while it stays listed.</li>
 * </ul>
 */
public final class ReplicatedTransport implements McpTransport {

	private static final Log logger = LogFactory.getLog(ReplicatedTransport.class);

	/**
	 * How long an instance that refused a connection is passed over: a registry takes seconds
	 * to tens of seconds to drop an instance that died, and a request should not knock at it
	 * meanwhile; short enough that an instance back from a restart gets traffic again soon.
	 */
	static final Duration PASSED_OVER = Duration.ofSeconds(10);

	/** How long the probe of an instance whose exchange broke may take to connect. */
	static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

	/** Pins of older generations kept for their in-flight messages (one renewal behind). */
	private static final int KEPT_GENERATIONS = 2;

	private final String upstream;

	private final Instances instances;

	private final Function<URI, HttpTransport> connect;

	private final Consumer<HttpHeaders> baseHeaders;

	private final Map<URI, Replica> open = new ConcurrentHashMap<>();

	/** The instance each legacy generation lives on, by generation. */
	private final Map<Long, URI> pins = new ConcurrentHashMap<>();

	private final AtomicLong turn = new AtomicLong();

	private volatile List<URI> lastLive = List.of();

	private volatile boolean closed;

	/**
	 * Creates the transport of one replicated upstream.
	 * @param upstream the upstream name
	 * @param instances the live endpoints
	 * @param baseHeaders the headers every message carries (for {@link #secrets(Envelope)})
	 * @param connect the transport to one endpoint, made when it is first needed and closed
	 * when it has left the live set and carries nothing
	 */
	public ReplicatedTransport(String upstream, Instances instances, Consumer<HttpHeaders> baseHeaders,
			Function<URI, HttpTransport> connect) {
		this.upstream = upstream;
		this.instances = instances;
		this.baseHeaders = baseHeaders;
		this.connect = connect;
	}

	/** A new generation: its instance is chosen by its first request, the {@code initialize}. */
	@Override
	public void open(long generation) {
		this.pins.remove(generation);
		this.pins.keySet().removeIf((g) -> g <= generation - KEPT_GENERATIONS);
		// an older generation on an instance that left has nothing left to reach
		List<URI> live = this.instances.live();
		this.pins.entrySet().removeIf((pin) -> pin.getKey() < generation && !live.contains(pin.getValue()));
	}

	@Override
	public Received request(long id, byte[] message, Envelope envelope, InboundMessages inbound,
			Watchdog.Guard deadline) throws IOException {
		URI pinned = this.pins.get(envelope.generation());
		if (envelope.sessionId() != null) {
			return onSession(pinned, envelope, (t) -> t.request(id, message, envelope, inbound, deadline));
		}
		boolean opening = McpMethods.INITIALIZE.equals(envelope.method());
		if (pinned != null && !opening) {
			// A legacy server without session ids: its handshake was made with this instance.
			return onSession(pinned, envelope, (t) -> t.request(id, message, envelope, inbound, deadline));
		}
		return anywhere(envelope, opening, (t) -> t.request(id, message, envelope, inbound, deadline));
	}

	@Override
	public Received resume(Resumption from, Envelope envelope, InboundMessages inbound, Watchdog.Guard deadline)
			throws IOException {
		URI pinned = this.pins.get(envelope.generation());
		Replica instance = (pinned != null) ? live(pinned) : null;
		if (instance == null) {
			throw new StreamBrokenException("the instance the session lived on has left", null, null, true);
		}
		try {
			return instance.call((t) -> t.resume(from, envelope, inbound, deadline));
		}
		catch (NotSentException ex) {
			passOver(instance);
			throw new StreamBrokenException("the instance the session lived on refused the connection", ex, null,
					true);
		}
		catch (StreamBrokenException ex) {
			if (ex.getCause() instanceof NotSentException) {
				passOver(instance);
				throw new StreamBrokenException("the instance the session lived on refused the connection", ex, null,
						true);
			}
			throw ex;
		}
	}

	@Override
	public void send(byte[] message, Envelope envelope, Watchdog.Guard deadline) throws IOException {
		URI pinned = this.pins.get(envelope.generation());
		if (pinned != null || envelope.sessionId() != null) {
			onSession(pinned, envelope, (t) -> {
				t.send(message, envelope, deadline);
				return Boolean.TRUE; // a send brings nothing back
			});
			return;
		}
		anywhere(envelope, false, (t) -> {
			t.send(message, envelope, deadline);
			return Boolean.TRUE;
		});
	}

	@Override
	public ListenOutcome listen(byte @Nullable [] listenRequest, Envelope envelope, InboundMessages inbound,
			Consumer<Closeable> opened) throws IOException {
		URI pinned = this.pins.get(envelope.generation());
		if (pinned != null || envelope.sessionId() != null) {
			Replica instance = (pinned != null) ? live(pinned) : null;
			if (instance == null) {
				return ListenOutcome.SESSION_GONE;
			}
			return instance.call((t) -> t.listen(listenRequest, envelope, inbound, opened));
		}
		try {
			return anywhere(envelope, false, (t) -> t.listen(listenRequest, envelope, inbound, opened));
		}
		catch (IOException | McpException ex) {
			return ListenOutcome.BROKEN;
		}
	}

	@Override
	public int end(Envelope envelope, Watchdog.Guard deadline) {
		URI pinned = this.pins.get(envelope.generation());
		Replica instance = (pinned != null) ? this.open.get(pinned) : null;
		if (instance == null) {
			return -1;
		}
		try {
			return instance.call((t) -> t.end(envelope, deadline));
		}
		catch (IOException ex) {
			return -1;
		}
	}

	@Override
	public Iterable<String> secrets(Envelope envelope) {
		return HttpTransport.secrets(this.baseHeaders, envelope);
	}

	@Override
	public String destination() {
		return "the instances of " + this.upstream;
	}

	@Override
	public void close() {
		this.closed = true;
		this.open.values().forEach((instance) -> instance.transport.close());
		this.open.clear();
		this.pins.clear();
	}

	/**
	 * A message of a legacy session: to the instance it lives on, or, when that instance has
	 * left or refuses the connection, a {@link SessionGoneException} (status 0: no server
	 * received it), so the recovery loop renews the session on another instance.
	 */
	private <T> T onSession(@Nullable URI pinned, Envelope envelope, Replica.Exchange<T> exchange) throws IOException {
		Replica instance = (pinned != null) ? live(pinned) : null;
		if (instance == null) {
			throw gone(envelope, (pinned != null) ? "the instance " + shown(pinned) + " it lived on has left"
					: "no instance holds it any more", null);
		}
		try {
			return instance.call(exchange);
		}
		catch (NotSentException ex) {
			passOver(instance);
			throw gone(envelope, "the instance " + shown(instance.uri) + " it lived on refused the connection", ex);
		}
		catch (IOException ex) {
			if (isDown(instance)) {
				// The stream broke because its instance went down: the request may have run,
				// and the session is gone with the instance (resuming it there is pointless).
				throw new StreamBrokenException(ex.getMessage() + "; the instance " + shown(instance.uri)
						+ " the session lived on is down", ex, null, true);
			}
			throw ex;
		}
	}

	/**
	 * A message that may go to any instance: a modern request, or the {@code initialize} of a
	 * legacy generation, which pins the generation to where it went. A refused connection
	 * carried nothing, so the next instance is tried, each at most once.
	 */
	private <T> T anywhere(Envelope envelope, boolean pin, Replica.Exchange<T> exchange) throws IOException {
		List<URI> tried = new ArrayList<>(2);
		NotSentException refused = null;
		while (true) {
			Replica instance = choose(tried);
			if (instance == null) {
				throw (refused != null) ? refused : noLiveInstance();
			}
			tried.add(instance.uri);
			if (pin) {
				this.pins.put(envelope.generation(), instance.uri);
			}
			try {
				return instance.call(exchange);
			}
			catch (NotSentException ex) {
				passOver(instance);
				if (refused != null) {
					ex.addSuppressed(refused);
				}
				refused = ex;
				logger.debug("[" + this.upstream + "] " + shown(instance.uri) + " refused " + envelope.method()
						+ "; trying the next instance");
			}
			catch (IOException ex) {
				isDown(instance); // passed over if so: a re-issue the recovery loop allows goes elsewhere
				throw ex;
			}
		}
	}

	/**
	 * Whether an instance whose exchange just broke is down: it refuses a new connection (a
	 * killed process, a stopped server). Asked only after a failure; an instance that accepts,
	 * or does not answer within {@link #PROBE_TIMEOUT}, is not known to be down. One that is
	 * is passed over.
	 */
	private boolean isDown(Replica instance) {
		URI uri = instance.uri;
		int port = (uri.getPort() >= 0) ? uri.getPort() : ("https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80);
		try (Socket probe = new Socket()) {
			probe.connect(new InetSocketAddress(uri.getHost(), port), (int) PROBE_TIMEOUT.toMillis());
			return false;
		}
		catch (IOException ex) {
			if (NotSentException.provesNotSent(ex)) {
				passOver(instance);
				return true;
			}
			return false;
		}
	}

	/**
	 * The next instance for a message that may go anywhere: among the live ones not tried yet,
	 * those not passed over (all of them when every one is), the application's choice or round
	 * robin; {@code null} when none is left.
	 */
	private @Nullable Replica choose(List<URI> tried) {
		List<URI> live = liveEndpoints();
		List<URI> fresh = new ArrayList<>(live.size());
		List<URI> untried = new ArrayList<>(live.size());
		long now = System.nanoTime();
		for (URI uri : live) {
			if (tried.contains(uri)) {
				continue;
			}
			untried.add(uri);
			Replica known = this.open.get(uri);
			if (known == null || !known.passedOver(now)) {
				fresh.add(uri);
			}
		}
		List<URI> candidates = fresh.isEmpty() ? untried : fresh;
		if (candidates.isEmpty()) {
			return null;
		}
		URI chosen = this.instances.choose(List.copyOf(candidates));
		if (chosen == null || !candidates.contains(chosen)) {
			chosen = candidates.get((int) Math.floorMod(this.turn.getAndIncrement(), (long) candidates.size()));
		}
		return instance(chosen);
	}

	/** The instance of a pinned endpoint, if it is still live. */
	private @Nullable Replica live(URI pinned) {
		return liveEndpoints().contains(pinned) ? instance(pinned) : null;
	}

	private Replica instance(URI uri) {
		if (this.closed) {
			throw new McpTransportException(this.upstream, "the client is closed", new IOException("closed"));
		}
		return this.open.computeIfAbsent(uri, (u) -> new Replica(u, this.connect.apply(u)));
	}

	/**
	 * The live endpoints; when they changed, the transports of instances that left and carry
	 * nothing are closed, so a registry that churns leaves no connection behind.
	 */
	private List<URI> liveEndpoints() {
		List<URI> live = this.instances.live();
		if (live != this.lastLive) {
			this.lastLive = live;
			for (Replica instance : this.open.values()) {
				if (!live.contains(instance.uri) && !this.pins.containsValue(instance.uri) && instance.retire()) {
					this.open.remove(instance.uri, instance);
					instance.transport.close();
				}
			}
		}
		return live;
	}

	private void passOver(Replica instance) {
		instance.passedOverUntil = System.nanoTime() + PASSED_OVER.toNanos();
	}

	private SessionGoneException gone(Envelope envelope, String why, @Nullable Exception cause) {
		IOException reason = new ConnectException(why);
		if (cause != null) {
			reason.initCause(cause);
		}
		return new SessionGoneException(this.upstream, envelope.method(), 0,
				new McpTransportException(this.upstream, "the session is gone: " + why, reason));
	}

	private NotSentException noLiveInstance() {
		return new NotSentException(new ConnectException("no live instance of " + this.upstream));
	}

	private static String shown(URI uri) {
		return Replica.shown(uri);
	}

}
