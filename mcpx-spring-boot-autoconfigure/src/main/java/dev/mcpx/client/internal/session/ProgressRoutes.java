package dev.mcpx.client.internal.session;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.transport.Watchdog;
import dev.mcpx.client.model.McpProgress;
import tools.jackson.databind.JsonNode;

/**
 * Routes {@code notifications/progress} to the call whose progress token they name
 * (2025-11-25 basic/utilities/progress; 2026-07-28 basic/patterns/progress), whatever stream
 * they arrive on: the request's own response stream, a resumed one, the listen stream, or
 * the stream of a re-issue of the request (a re-issue carries the same token). A route also
 * holds the deadlines of the call's attempts, so that progress can start the timeout afresh,
 * never past the call's hard cap (2026-07-28 basic/patterns/cancellation §Timeouts).
 */
public final class ProgressRoutes {

	private static final Log logger = LogFactory.getLog(ProgressRoutes.class);

	private final String upstream;

	private final ConcurrentHashMap<String, Route> routes = new ConcurrentHashMap<>();

	private final AtomicLong tokens = new AtomicLong();

	/**
	 * Creates the routes of one client.
	 * @param upstream the upstream name
	 */
	public ProgressRoutes(String upstream) {
		this.upstream = upstream;
	}

	/**
	 * Opens the route of one call; close it when the call ends.
	 * @param sink receives the call's progress, absent for none
	 * @param timeout the silence the call allows
	 * @param resetOnProgress whether progress starts the timeout afresh
	 * @param maxTotal the hard cap of the call, from now
	 * @return the route, whose token goes into the request's {@code _meta}
	 */
	public Route open(@Nullable Consumer<McpProgress> sink, Duration timeout, boolean resetOnProgress,
			Duration maxTotal) {
		String token = "mcpx-" + this.tokens.incrementAndGet();
		Route route = new Route(token, sink, timeout, resetOnProgress, System.nanoTime() + maxTotal.toNanos());
		this.routes.put(token, route);
		return route;
	}

	/**
	 * The route a request's parameters name in {@code _meta.progressToken}.
	 * @param params the request's parameters
	 * @return the open route, absent when the request carries no token of an open route
	 */
	@Nullable Route of(@Nullable JsonNode params) {
		if (params == null || this.routes.isEmpty()) {
			return null;
		}
		JsonNode token = params.path("_meta").get("progressToken");
		return (token != null && token.isValueNode()) ? this.routes.get(token.asString()) : null;
	}

	/**
	 * Delivers one {@code notifications/progress}; a token of no open call is ignored
	 * (the call ended, or the server made it up).
	 * @param params the notification's parameters
	 */
	void deliver(@Nullable JsonNode params) {
		if (params == null) {
			return;
		}
		JsonNode token = params.get("progressToken");
		Route route = (token != null && token.isValueNode()) ? this.routes.get(token.asString()) : null;
		if (route == null) {
			return;
		}
		JsonNode total = params.get("total");
		JsonNode message = params.get("message");
		route.progressed(new McpProgress(params.path("progress").asDouble(0),
				(total != null && total.isNumber()) ? total.asDouble() : null,
				(message != null && message.isString()) ? message.asString() : null));
	}

	/**
	 * The progress route of one call.
	 */
	public final class Route implements AutoCloseable {

		private final String token;

		private final @Nullable Consumer<McpProgress> sink;

		private final Duration timeout;

		private final boolean resetOnProgress;

		private final long capNanos;

		private final Set<Watchdog.Guard> guards = ConcurrentHashMap.newKeySet();

		private Route(String token, @Nullable Consumer<McpProgress> sink, Duration timeout, boolean resetOnProgress,
				long capNanos) {
			this.token = token;
			this.sink = sink;
			this.timeout = timeout;
			this.resetOnProgress = resetOnProgress;
			this.capNanos = capNanos;
		}

		/**
		 * The progress token of the call.
		 * @return the token
		 */
		public String token() {
			return this.token;
		}

		/** An attempt of the call started waiting; its deadline never passes the cap. */
		void attach(Watchdog.Guard guard) {
			guard.limit(this.capNanos);
			this.guards.add(guard);
		}

		void detach(Watchdog.Guard guard) {
			this.guards.remove(guard);
		}

		private void progressed(McpProgress progress) {
			if (this.resetOnProgress) {
				for (Watchdog.Guard guard : this.guards) {
					guard.extend(this.timeout, this.capNanos);
				}
			}
			if (this.sink != null) {
				try {
					this.sink.accept(progress);
				}
				catch (RuntimeException ex) {
					logger.warn("[" + ProgressRoutes.this.upstream + "] a progress consumer failed", ex);
				}
			}
		}

		@Override
		public void close() {
			ProgressRoutes.this.routes.remove(this.token, this);
			this.guards.clear();
		}

	}

}
