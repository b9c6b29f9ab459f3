package dev.mcpx.client.internal.recovery;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.session.EraTraits;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.RenewalListener;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A legacy session without a server: each send answers with the next scripted failure, or
 * a result once the script is done; it counts what a server would have received.
 */
final class FakeSession implements ProtocolSession {

	private final Deque<McpException> script = new ArrayDeque<>();

	private final Deque<McpException> resumptions = new ArrayDeque<>();

	private volatile SessionState state = state(1);

	final List<String> received = new ArrayList<>();

	int renewals;

	static SessionState state(long generation) {
		return new SessionState(ProtocolEra.LEGACY, generation, "session-" + generation + "-0123456789", "2025-11-25",
				null, JsonNodeFactory.instance.objectNode());
	}

	/** The next sends fail with these, in order. */
	FakeSession failing(McpException... failures) {
		this.script.addAll(List.of(failures));
		return this;
	}

	/** The next resumptions fail with these, in order; then they succeed. */
	FakeSession resumptionsFailing(McpException... failures) {
		this.resumptions.addAll(List.of(failures));
		return this;
	}

	@Override
	public SessionState open() {
		return this.state;
	}

	@Override
	public @Nullable SessionState current() {
		return this.state;
	}

	@Override
	public SessionState renew(SessionState dead, RenewalListener listener) {
		if (this.state.generation() > dead.generation()) {
			return this.state;
		}
		this.renewals++;
		this.received.add("initialize");
		listener.expired(dead);
		SessionState next = state(dead.generation() + 1);
		this.state = next;
		listener.renewed(dead, next, Duration.ZERO);
		return next;
	}

	@Override
	public void invalidate(SessionState dead) {
	}

	@Override
	public JsonNode request(SessionState on, McpRequest request) {
		this.received.add(request.method() + "@" + on.generation());
		McpException failure = this.script.poll();
		if (failure != null) {
			throw failure;
		}
		return JsonNodeFactory.instance.objectNode().put("ok", true);
	}

	@Override
	public JsonNode resume(SessionState on, McpRequest request, Resumption from, Duration remaining) {
		this.received.add("GET " + from.lastEventId() + "@" + on.generation());
		McpException failure = this.resumptions.poll();
		if (failure != null) {
			throw failure;
		}
		return JsonNodeFactory.instance.objectNode().put("resumed", true);
	}

	@Override
	public ListenOutcome listen(SessionState on, Consumer<Closeable> opened) {
		return ListenOutcome.NOT_OFFERED;
	}

	@Override
	public EraTraits traits(SessionState on) {
		return EraTraits.LEGACY;
	}

	@Override
	public void close() {
	}

}
