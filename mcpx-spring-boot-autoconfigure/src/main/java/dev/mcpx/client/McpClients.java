package dev.mcpx.client;

import java.net.URI;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.mcpx.client.event.McpUpstreamChangedEvent;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Cause;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Change;

/**
 * The live set of {@link McpClient}s, by upstream name: the upstreams declared in the
 * application's configuration ({@code mcpx.clients}, in declaration order), then those
 * added while it runs. Upstreams may be {@linkplain #add(String, URI, Consumer) added},
 * replaced and {@linkplain #remove(String) removed} at any time, from any thread; every
 * read sees one consistent set, and {@link McpClientsListener}s hear each change, with its
 * {@link McpUpstreamChangedEvent}: what changed, and why ({@link Cause}).
 * <p>
 * A removed or replaced client drains: the calls in flight on it finish within their own
 * timeouts, a call that starts on it afterwards fails with
 * {@link dev.mcpx.client.error.McpClientClosedException} naming the upstream (nothing is
 * sent), and once the last call in flight ended it closes as at shutdown (see
 * {@code docs/architecture.md}, "The live registry").
 * <p>
 * An upstream from the configuration wins over one added in code under the same name: the
 * addition is refused with a warning.
 */
public final class McpClients implements Iterable<McpClient>, AutoCloseable {

	private static final Log logger = LogFactory.getLog(McpClients.class);

	private final Preparation preparation;

	private final List<McpClientsListener> listeners = new CopyOnWriteArrayList<>();

	/** The live set, replaced whole on every change, so that reads take no lock. */
	private volatile Map<String, Live> live;

	private boolean closed;

	/**
	 * Creates a registry of the given clients, as declared in the configuration.
	 * @param clients the clients; their names must be unique
	 */
	public McpClients(Iterable<? extends McpClient> clients) {
		this(clients, new Preparation() {
		});
	}

	/**
	 * Creates a registry of the given clients, as declared in the configuration, whose
	 * upstreams added later by {@link #add(String, URI, Consumer)} are prepared as given.
	 * @param clients the clients; their names must be unique
	 * @param preparation what every builder of an upstream added later is given, around the
	 * caller's own settings
	 */
	public McpClients(Iterable<? extends McpClient> clients, Preparation preparation) {
		this.preparation = Objects.requireNonNull(preparation, "preparation");
		Map<String, Live> byName = new LinkedHashMap<>();
		for (McpClient client : clients) {
			if (byName.putIfAbsent(client.name(), new Live(client, true)) != null) {
				throw new IllegalArgumentException("Duplicate MCP upstream name '" + client.name() + "'");
			}
		}
		this.live = Collections.unmodifiableMap(byName);
	}

	/**
	 * Returns the client of the named upstream.
	 * @param name the upstream name
	 * @return the client
	 * @throws IllegalArgumentException if no live upstream has that name
	 */
	public McpClient get(String name) {
		Live entry = this.live.get(name);
		if (entry == null) {
			throw new IllegalArgumentException(
					"No MCP upstream named '" + name + "'; configured: " + this.live.keySet());
		}
		return entry.client();
	}

	/**
	 * Returns the client of the named upstream, if it is live.
	 * @param name the upstream name
	 * @return the client, or empty
	 */
	public Optional<McpClient> find(String name) {
		return Optional.ofNullable(this.live.get(name)).map(Live::client);
	}

	/**
	 * Returns the names of the live upstreams.
	 * @return a snapshot of the names: configured ones in declaration order, then added ones
	 * in the order they were added
	 */
	public Set<String> names() {
		return this.live.keySet();
	}

	/**
	 * Whether the named upstream was declared in the application's configuration (rather
	 * than added in code).
	 * @param name the upstream name
	 * @return whether it is live and configured
	 */
	public boolean isConfigured(String name) {
		Live entry = this.live.get(name);
		return entry != null && entry.configured();
	}

	/**
	 * Iterates over a snapshot of the live set.
	 * @return the clients, in the order of {@link #names()}
	 */
	@Override
	public Iterator<McpClient> iterator() {
		return this.live.values().stream().map(Live::client).iterator();
	}

	/**
	 * Adds an HTTP upstream, or replaces the one added under the same name before.
	 * @param name the upstream name
	 * @param url the MCP endpoint, http or https
	 * @param settings the upstream's settings, applied to its builder after what every
	 * upstream is given ({@link Preparation})
	 * @return the client now live under that name: the configured one if the name is
	 * declared in the configuration (which wins, with a warning)
	 * @throws IllegalArgumentException if a setting is refused, naming it
	 */
	public McpClient add(String name, URI url, Consumer<McpClientBuilder> settings) {
		return add(prepared(McpClient.builder(name, url), settings));
	}

	/**
	 * Adds an HTTP upstream served by several interchangeable instances (see
	 * {@link McpEndpoints}), or replaces the one added under the same name before.
	 * @param name the upstream name
	 * @param endpoints the live endpoints of its instances
	 * @param settings the upstream's settings, applied to its builder after what every
	 * upstream is given ({@link Preparation})
	 * @return the client now live under that name: the configured one if the name is
	 * declared in the configuration (which wins, with a warning)
	 * @throws IllegalArgumentException if a setting is refused, naming it
	 */
	public McpClient add(String name, McpEndpoints endpoints, Consumer<McpClientBuilder> settings) {
		return add(prepared(McpClient.builder(name, endpoints), settings));
	}

	/**
	 * Adds a stdio upstream, or replaces the one added under the same name before.
	 * @param name the upstream name
	 * @param command how to start the server
	 * @param settings the upstream's settings, applied to its builder after what every
	 * upstream is given ({@link Preparation})
	 * @return the client now live under that name: the configured one if the name is
	 * declared in the configuration (which wins, with a warning)
	 * @throws IllegalArgumentException if a setting is refused, naming it
	 */
	public McpClient add(String name, StdioCommand command, Consumer<McpClientBuilder> settings) {
		return add(prepared(McpClient.stdio(name, command), settings));
	}

	private McpClient prepared(McpClientBuilder builder, Consumer<McpClientBuilder> settings) {
		this.preparation.beforeSettings(builder.name(), builder);
		settings.accept(builder);
		this.preparation.afterSettings(builder.name(), builder);
		return builder.build();
	}

	/**
	 * Adds a client built elsewhere, or puts it in place of the one added under the same
	 * name before; the registry owns it from now on and closes it when it leaves.
	 * @param client the client
	 * @return the client now live under its name: the configured one if the name is declared
	 * in the configuration (which wins, with a warning; the client given is closed)
	 */
	public McpClient add(McpClient client) {
		return put(client, false, Cause.API);
	}

	/**
	 * Adds a client built elsewhere, as {@link #add(McpClient)} does, saying what added it
	 * (the service registry, for an upstream discovered there), which its
	 * {@link McpUpstreamChangedEvent} tells the listeners.
	 * @param client the client
	 * @param cause what adds it
	 * @return the client now live under its name: the configured one if the name is declared
	 * in the configuration (which wins, with a warning; the client given is closed)
	 */
	public McpClient add(McpClient client, Cause cause) {
		return put(client, false, Objects.requireNonNull(cause, "cause"));
	}

	/**
	 * Adds or replaces an upstream declared in the application's configuration, as a
	 * refresh of the configuration does: it replaces any client under the same name,
	 * configured or added.
	 * @param client the client
	 * @return the client
	 */
	public McpClient addConfigured(McpClient client) {
		return put(client, true, Cause.REFRESH);
	}

	private synchronized McpClient put(McpClient client, boolean configured, Cause cause) {
		String name = client.name();
		Live previous = this.live.get(name);
		if (this.closed) {
			client.close();
			throw new IllegalStateException("McpClients is closed; MCP upstream '" + name + "' was not added");
		}
		if (previous != null && previous.configured() && !configured) {
			logger.warn("MCP upstream '" + name + "' is declared in the configuration, which wins over the one "
					+ "added in code; that one was not added");
			client.close();
			return previous.client();
		}
		if (previous != null && previous.client() == client) {
			return client;
		}
		Map<String, Live> next = new LinkedHashMap<>(this.live);
		next.put(name, new Live(client, configured));
		this.live = Collections.unmodifiableMap(next);
		if (previous == null) {
			McpUpstreamChangedEvent event = changed(client, Change.ADDED, cause);
			tell((listener) -> listener.added(client), event);
		}
		else {
			McpUpstreamChangedEvent event = changed(client, Change.REPLACED, cause);
			drain(previous.client(), "MCP upstream '" + name + "' was replaced; McpClients has its new client");
			tell((listener) -> listener.replaced(previous.client(), client), event);
		}
		return client;
	}

	/**
	 * Removes an upstream, configured or added. It leaves the live set at once (its
	 * {@code @Qualifier} bean, if it had one, fails every call from now on); its client
	 * drains, then closes.
	 * @param name the upstream name
	 * @return completes when the removed client is closed; complete at once when no live
	 * upstream has that name
	 */
	public CompletableFuture<Void> remove(String name) {
		return remove(name, Cause.API);
	}

	/**
	 * Removes an upstream, as {@link #remove(String)} does, saying what removed it, which its
	 * {@link McpUpstreamChangedEvent} tells the listeners.
	 * @param name the upstream name
	 * @param cause what removes it
	 * @return completes when the removed client is closed; complete at once when no live
	 * upstream has that name
	 */
	public synchronized CompletableFuture<Void> remove(String name, Cause cause) {
		Objects.requireNonNull(cause, "cause");
		Live removed = this.live.get(name);
		if (removed == null) {
			return CompletableFuture.completedFuture(null);
		}
		Map<String, Live> next = new LinkedHashMap<>(this.live);
		next.remove(name);
		this.live = Collections.unmodifiableMap(next);
		// its endpoint read before it drains: a client with no call in flight closes at once
		McpUpstreamChangedEvent event = changed(removed.client(), Change.REMOVED, cause);
		CompletableFuture<Void> closing = drain(removed.client(), "MCP upstream '" + name + "' was removed");
		tell((listener) -> listener.removed(removed.client()), event);
		return closing;
	}

	/**
	 * Lets the calls in flight finish, then closes; a client of another implementation,
	 * which cannot tell its calls in flight, is closed at once.
	 */
	private static CompletableFuture<Void> drain(McpClient client, String why) {
		if (client instanceof DefaultMcpClient own) {
			return own.drain(why);
		}
		client.close();
		return CompletableFuture.completedFuture(null);
	}

	/** The event of a change, with the endpoint as the client's status shows it (no secret). */
	private static McpUpstreamChangedEvent changed(McpClient client, Change change, Cause cause) {
		String url;
		try {
			url = client.status().url();
		}
		catch (RuntimeException ex) {
			// a client of another implementation that cannot tell its status
			url = "unknown";
		}
		return new McpUpstreamChangedEvent(client.name(), change, cause, url);
	}

	/**
	 * Adds a listener of the changes to the live set.
	 * @param listener the listener
	 */
	public void addListener(McpClientsListener listener) {
		this.listeners.add(Objects.requireNonNull(listener, "listener"));
	}

	/**
	 * Removes a listener added before.
	 * @param listener the listener
	 */
	public void removeListener(McpClientsListener listener) {
		this.listeners.remove(listener);
	}

	private void tell(Consumer<McpClientsListener> change, McpUpstreamChangedEvent event) {
		for (McpClientsListener listener : this.listeners) {
			for (Consumer<McpClientsListener> told : List.<Consumer<McpClientsListener>>of(change,
					(each) -> each.changed(event))) {
				try {
					told.accept(listener);
				}
				catch (RuntimeException ex) {
					// a listener's failure must not undo or stop a change that took effect
					logger.warn("McpClientsListener " + listener + " failed", ex);
				}
			}
		}
	}

	/**
	 * Closes every live client at once, ending their sessions, as at shutdown (clients
	 * still draining close when their calls end). Nothing may be added afterwards.
	 */
	@Override
	public void close() {
		Map<String, Live> clients;
		synchronized (this) {
			this.closed = true;
			clients = this.live;
		}
		clients.values().forEach((entry) -> entry.client().close());
	}

	/**
	 * What every upstream added by {@link #add(String, URI, Consumer)} is given around the
	 * caller's own settings: in a Spring application, {@code mcpx.defaults} before and the
	 * application's customizers after, as an upstream from the configuration is.
	 */
	public interface Preparation {

		/**
		 * Applied first, before the caller's settings.
		 * @param name the upstream name
		 * @param builder its builder
		 */
		default void beforeSettings(String name, McpClientBuilder builder) {
		}

		/**
		 * Applied last, after the caller's settings.
		 * @param name the upstream name
		 * @param builder its builder
		 */
		default void afterSettings(String name, McpClientBuilder builder) {
		}

	}

	private record Live(McpClient client, boolean configured) {
	}

}
