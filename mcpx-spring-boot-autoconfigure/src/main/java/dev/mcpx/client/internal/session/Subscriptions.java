package dev.mcpx.client.internal.session;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.model.McpResourceUpdate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The resource subscriptions of one client, which outlive its sessions. A legacy
 * subscription is state of the session (2025-11-25 server/resources §Subscriptions): after
 * every new handshake the client subscribes again in the new session and tells each
 * subscriber that it may have missed updates, so the application reads the resource again;
 * a subscription is never silently lost. A modern subscription is part of the
 * {@code subscriptions/listen} filter (2026-07-28 basic/patterns/subscriptions), opened
 * again with the stream.
 */
public final class Subscriptions implements SessionSetup {

	private static final Log logger = LogFactory.getLog(Subscriptions.class);

	private final String upstream;

	private final JsonRpc jsonRpc;

	private final BackgroundTasks background;

	private final Map<String, List<Consumer<McpResourceUpdate>>> byUri = new ConcurrentHashMap<>();

	/**
	 * Creates the subscriptions of one client.
	 * @param upstream the upstream name
	 * @param jsonRpc the codec
	 * @param background where re-subscribing runs, off the handshaking thread
	 */
	public Subscriptions(String upstream, JsonRpc jsonRpc, BackgroundTasks background) {
		this.upstream = upstream;
		this.jsonRpc = jsonRpc;
		this.background = background;
	}

	/**
	 * Adds a subscriber.
	 * @param uri the resource URI
	 * @param subscriber receives its updates
	 * @return {@code true} when it is the first for that URI, so the server must be told
	 */
	public boolean add(String uri, Consumer<McpResourceUpdate> subscriber) {
		boolean[] first = new boolean[1];
		this.byUri.compute(uri, (key, existing) -> {
			List<Consumer<McpResourceUpdate>> list = (existing != null) ? existing : new CopyOnWriteArrayList<>();
			first[0] = list.isEmpty();
			list.add(subscriber);
			return list;
		});
		return first[0];
	}

	/**
	 * Removes a subscriber.
	 * @param uri the resource URI
	 * @param subscriber the subscriber
	 * @return {@code true} when it was the last for that URI, so the server may be told
	 */
	public boolean remove(String uri, Consumer<McpResourceUpdate> subscriber) {
		boolean[] last = new boolean[1];
		this.byUri.computeIfPresent(uri, (key, list) -> {
			list.remove(subscriber);
			last[0] = list.isEmpty();
			return list.isEmpty() ? null : list;
		});
		return last[0];
	}

	/**
	 * Whether any resource is subscribed, so that a notification stream is worth holding open.
	 * @return {@code true} when there is a subscription
	 */
	public boolean active() {
		return !this.byUri.isEmpty();
	}

	/**
	 * The subscribed URIs.
	 * @return a snapshot
	 */
	public Set<String> uris() {
		return Set.copyOf(this.byUri.keySet());
	}

	/**
	 * Delivers a {@code notifications/resources/updated}.
	 * @param params its parameters
	 */
	public void updated(@Nullable JsonNode params) {
		String uri = (params != null) ? params.path("uri").asString(null) : null;
		if (uri != null) {
			deliver(new McpResourceUpdate(uri, false));
		}
	}

	/**
	 * Tells every subscriber that updates may have been missed (a modern listen stream that
	 * was opened again after it broke).
	 */
	public void mayHaveMissedUpdates() {
		for (String uri : uris()) {
			deliver(new McpResourceUpdate(uri, true));
		}
	}

	/**
	 * 2025-11-25 server/resources §Subscriptions: a new session knows no subscription, so
	 * every subscribed resource is subscribed again in it, then each subscriber hears that it
	 * may have missed updates. Off the handshaking thread; a first session has nothing to
	 * re-establish.
	 */
	@Override
	public void established(SessionState state, Requests requests) {
		Set<String> uris = uris();
		if (uris.isEmpty() || state.generation() <= 1) {
			return;
		}
		this.background.executeEssential(() -> {
			for (String uri : uris) {
				if (!this.byUri.containsKey(uri)) {
					continue;
				}
				try {
					requests.request(McpMethods.RESOURCES_SUBSCRIBE, params(uri));
					logger.debug("[" + this.upstream + "] subscribed to " + uri + " again in session generation "
							+ state.generation());
				}
				catch (McpException ex) {
					logger.warn("[" + this.upstream + "] could not subscribe to " + uri + " again in session generation "
							+ state.generation() + ": " + ex.getMessage());
				}
				deliver(new McpResourceUpdate(uri, true));
			}
		});
	}

	/**
	 * The parameters of a {@code resources/subscribe} or {@code resources/unsubscribe}.
	 * @param uri the resource URI
	 * @return the parameters
	 */
	public ObjectNode params(String uri) {
		ObjectNode params = this.jsonRpc.object();
		params.put("uri", uri);
		return params;
	}

	private void deliver(McpResourceUpdate update) {
		List<Consumer<McpResourceUpdate>> subscribers = this.byUri.get(update.uri());
		if (subscribers == null) {
			return;
		}
		for (Consumer<McpResourceUpdate> subscriber : subscribers) {
			try {
				subscriber.accept(update);
			}
			catch (RuntimeException ex) {
				logger.warn("[" + this.upstream + "] a subscriber of " + update.uri() + " failed", ex);
			}
		}
	}

}
