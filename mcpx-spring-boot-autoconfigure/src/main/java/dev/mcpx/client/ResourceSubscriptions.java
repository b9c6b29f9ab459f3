package dev.mcpx.client;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.ListenLoop;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.session.Subscriptions;
import dev.mcpx.client.model.McpResourceUpdate;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;

/**
 * {@link McpClient#subscribe} of one client: in the legacy era, {@code resources/subscribe}
 * once per URI and {@code resources/unsubscribe} when its last subscriber leaves (2025-11-25
 * server/resources §Subscriptions); in the modern era, the listen stream's filter names the
 * subscribed resources, so a change opens it again (2026-07-28 basic/patterns/subscriptions).
 */
final class ResourceSubscriptions {

	/** The client's logger: what is logged here is the client's doing. */
	private static final Log logger = LogFactory.getLog(DefaultMcpClient.class);

	private final String name;

	private final Subscriptions subscriptions;

	private final RequestExecutor executor;

	private final ProtocolSession session;

	private final @Nullable ListenLoop listenLoop;

	/** Sends a request through the client API's one way out. */
	private final BiConsumer<String, JsonNode> send;

	private final BooleanSupplier clientClosed;

	ResourceSubscriptions(String name, Subscriptions subscriptions, RequestExecutor executor, ProtocolSession session,
			@Nullable ListenLoop listenLoop, BiConsumer<String, JsonNode> send, BooleanSupplier clientClosed) {
		this.name = name;
		this.subscriptions = subscriptions;
		this.executor = executor;
		this.session = session;
		this.listenLoop = listenLoop;
		this.send = send;
		this.clientClosed = clientClosed;
	}

	McpSubscription subscribe(String uri, Consumer<McpResourceUpdate> onUpdate) {
		Consumer<McpResourceUpdate> subscriber = Objects.requireNonNull(onUpdate, "onUpdate");
		boolean first = this.subscriptions.add(uri, subscriber);
		try {
			SessionState state = this.executor.connect();
			if (state.era() == ProtocolEra.LEGACY) {
				if (first) {
					this.send.accept(McpMethods.RESOURCES_SUBSCRIBE, this.subscriptions.params(uri));
				}
			}
			else if (first && this.listenLoop != null) {
				// 2026-07-28 basic/patterns/subscriptions: the stream's filter names the resource.
				this.listenLoop.restart();
			}
			if (this.listenLoop != null) {
				this.listenLoop.start();
			}
		}
		catch (RuntimeException ex) {
			this.subscriptions.remove(uri, subscriber);
			throw ex;
		}
		return new Subscription(uri, subscriber);
	}

	/** One application subscription; closing it twice unsubscribes once. */
	private final class Subscription implements McpSubscription {

		private final String uri;

		private final Consumer<McpResourceUpdate> subscriber;

		private final AtomicBoolean closed = new AtomicBoolean();

		Subscription(String uri, Consumer<McpResourceUpdate> subscriber) {
			this.uri = uri;
			this.subscriber = subscriber;
		}

		@Override
		public String uri() {
			return this.uri;
		}

		@Override
		public void close() {
			if (!this.closed.compareAndSet(false, true) || !subscriptions.remove(this.uri, this.subscriber)) {
				return;
			}
			SessionState state = session.current();
			if (state == null || clientClosed.getAsBoolean()) {
				return;
			}
			if (state.era() == ProtocolEra.LEGACY) {
				try {
					send.accept(McpMethods.RESOURCES_UNSUBSCRIBE, subscriptions.params(this.uri));
				}
				catch (McpException ex) {
					logger.debug("[" + name + "] could not unsubscribe from " + this.uri + ": " + ex.getMessage());
				}
			}
			else if (listenLoop != null) {
				listenLoop.restart();
			}
		}

		@Override
		public String toString() {
			return "McpSubscription[" + name + ", " + this.uri + "]";
		}

	}

}
