package dev.mcpx.client.internal.session;

import java.io.Closeable;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcError;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.transport.Envelope;
import dev.mcpx.client.internal.transport.InboundMessages;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.McpTransport;
import dev.mcpx.client.internal.transport.NotSentException;
import dev.mcpx.client.internal.transport.Received;
import dev.mcpx.client.internal.transport.Resumption;
import dev.mcpx.client.internal.transport.StreamBrokenException;
import dev.mcpx.client.internal.transport.Watchdog;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The exchange and the server-request answers against a transport without a server: what
 * arrives on the way is routed, server requests are answered the way they came (legacy) or
 * dropped (modern), failures leave typed, secrets never reach an error message.
 */
class ExchangeTest {

	private static final JsonRpc jsonRpc = new JsonRpc(JsonMapper.builder().build());

	private final Watchdog watchdog = new Watchdog();

	private final List<String> notifications = new CopyOnWriteArrayList<>();

	private final ScriptedTransport transport = new ScriptedTransport();

	private final Redaction redaction = new Redaction();

	private final Exchange exchange = new Exchange("fake", this.transport, jsonRpc, this.watchdog, Runnable::run,
			(upstream, method, params) -> this.notifications.add(method), new ServerRequests("fake", jsonRpc),
			this.redaction);

	private static final Envelope ENVELOPE = new Envelope("tools/call", 1, "session-secret-0123456789", "2025-11-25",
			Map.of());

	@AfterEach
	void close() {
		this.watchdog.close();
	}

	@Test
	void notificationsAndServerRequestsOnTheWayAreRoutedAndPingIsAnsweredTheWayItCame() {
		this.transport.onRequest = (inbound) -> {
			inbound.receive(new JsonRpcMessage.Notification("notifications/tools/list_changed", null));
			inbound.receive(new JsonRpcMessage.Request(jsonRpc.parse("7"), "ping", null));
			inbound.receive(new JsonRpcMessage.Request(jsonRpc.parse("8"), "sampling/createMessage", null));
			return ok();
		};
		this.exchange.request("tools/call", null, ENVELOPE, Duration.ofSeconds(5), ExchangeOptions.LEGACY);
		assertThat(this.notifications).containsExactly("notifications/tools/list_changed");
		assertThat(this.transport.sent).hasSize(2);
		assertThat(jsonRpc.parse(this.transport.sent.get(0)).path("result").isObject()).isTrue();
		assertThat(jsonRpc.parse(this.transport.sent.get(1)).path("error").path("code").asInt()).isEqualTo(-32601);
		assertThat(this.transport.sentEnvelopes).allSatisfy(
				(envelope) -> assertThat(envelope.sessionId()).isEqualTo(ENVELOPE.sessionId()));
	}

	@Test
	void aModernExchangeDropsServerRequests() {
		this.transport.onRequest = (inbound) -> {
			inbound.receive(new JsonRpcMessage.Request(jsonRpc.parse("7"), "ping", null));
			return ok();
		};
		this.exchange.request("tools/call", null, ENVELOPE, Duration.ofSeconds(5), ExchangeOptions.MODERN);
		assertThat(this.transport.sent).isEmpty();
	}

	@Test
	void aJsonRpcErrorIsTypedAndScrubbedOfEverySessionIdTheClientHeld() {
		this.redaction.remember("session-old-0123456789");
		this.transport.onRequest = (inbound) -> new Received(new JsonRpcMessage.Response(jsonRpc.parse("1"), null,
				new JsonRpcError(-32602, "no such session-old-0123456789 here", null)), null);
		assertThatThrownBy(
				() -> this.exchange.request("tools/call", null, ENVELOPE, Duration.ofSeconds(5), ExchangeOptions.LEGACY))
			.isInstanceOfSatisfying(McpJsonRpcException.class, (ex) -> {
				assertThat(ex.code()).isEqualTo(-32602);
				assertThat(ex.getMessage()).doesNotContain("session-old-0123456789").contains("sess…");
			});
	}

	@Test
	void aBrokenStreamIsALostStreamResumableOnlyWhereTheEraResumes() {
		Resumption from = new Resumption(1, "e-1", 250);
		this.transport.onRequest = (inbound) -> {
			throw new StreamBrokenException("the event stream ended before the response", null, from);
		};
		assertThatThrownBy(
				() -> this.exchange.request("tools/call", null, ENVELOPE, Duration.ofSeconds(5), ExchangeOptions.LEGACY))
			.isInstanceOfSatisfying(StreamLost.class, (lost) -> assertThat(lost.resumption()).isEqualTo(from));
		assertThatThrownBy(
				() -> this.exchange.request("tools/call", null, ENVELOPE, Duration.ofSeconds(5), ExchangeOptions.MODERN))
			.isInstanceOfSatisfying(StreamLost.class, (lost) -> assertThat(lost.resumption()).isNull());
	}

	@Test
	void aMessageThatNeverLeftIsATransportErrorNamingWhere() {
		this.transport.onRequest = (inbound) -> {
			throw new NotSentException(new ConnectException("Connection refused"));
		};
		assertThatThrownBy(
				() -> this.exchange.request("ping", null, ENVELOPE, Duration.ofSeconds(5), ExchangeOptions.LEGACY))
			.isInstanceOf(McpTransportException.class)
			.hasMessageContaining("could not reach fake-destination (connection refused); ping was not sent")
			.isNotInstanceOf(McpStreamLostException.class);
	}

	@Test
	void aTimedOutLegacyRequestIsCancelledWithItsId() throws Exception {
		CountDownLatch cancelled = new CountDownLatch(1);
		this.transport.onSend = (message) -> {
			if (jsonRpc.parse(message).path("method").asString("").equals("notifications/cancelled")) {
				cancelled.countDown();
			}
		};
		this.transport.onRequest = (inbound) -> {
			sleepUntilInterrupted();
			throw new IOException("aborted");
		};
		assertThatThrownBy(
				() -> this.exchange.request("tools/call", null, ENVELOPE, Duration.ofMillis(200), ExchangeOptions.LEGACY))
			.isInstanceOf(McpTimeoutException.class);
		assertThat(cancelled.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(jsonRpc.parse(this.transport.sent.get(0)).path("params").path("requestId").asLong())
			.isEqualTo(this.transport.lastRequestId);
	}

	private static Received ok() {
		return new Received(new JsonRpcMessage.Response(jsonRpc.parse("1"), jsonRpc.object(), null), null);
	}

	private static void sleepUntilInterrupted() {
		try {
			Thread.sleep(10_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@FunctionalInterface
	interface OnRequest {

		Received answer(InboundMessages inbound) throws IOException;

	}

	/** A transport whose request answers as scripted, and which records what was sent. */
	static final class ScriptedTransport implements McpTransport {

		volatile OnRequest onRequest = (inbound) -> ok();

		volatile Consumer<byte[]> onSend = (message) -> {
		};

		final List<byte[]> sent = new CopyOnWriteArrayList<>();

		final List<Envelope> sentEnvelopes = new CopyOnWriteArrayList<>();

		volatile long lastRequestId;

		@Override
		public void open(long generation) {
		}

		@Override
		public Received request(long id, byte[] message, Envelope envelope, InboundMessages inbound,
				Watchdog.Guard deadline) throws IOException {
			this.lastRequestId = id;
			// The deadline interrupts nothing here: it closes what a read waits on. The
			// watchdog closes it outside its lock, so the stand-in interrupt is fenced: none
			// may reach the caller once this request has returned.
			Thread caller = Thread.currentThread();
			boolean[] waiting = { true };
			deadline.attach(() -> {
				synchronized (waiting) {
					if (waiting[0]) {
						caller.interrupt();
					}
				}
			});
			try {
				return this.onRequest.answer(inbound);
			}
			finally {
				synchronized (waiting) {
					waiting[0] = false;
				}
				Thread.interrupted();
			}
		}

		@Override
		public Received resume(Resumption from, Envelope envelope, InboundMessages inbound, Watchdog.Guard deadline) {
			throw new UnsupportedOperationException();
		}

		@Override
		public void send(byte[] message, Envelope envelope, Watchdog.Guard deadline) {
			this.sent.add(message);
			this.sentEnvelopes.add(envelope);
			this.onSend.accept(message);
		}

		@Override
		public ListenOutcome listen(byte @Nullable [] listenRequest, Envelope envelope, InboundMessages inbound,
				Consumer<Closeable> opened) {
			return ListenOutcome.NOT_OFFERED;
		}

		@Override
		public int end(Envelope envelope, Watchdog.Guard deadline) {
			return 200;
		}

		@Override
		public Iterable<String> secrets(Envelope envelope) {
			return List.of();
		}

		@Override
		public String destination() {
			return "fake-destination";
		}

		@Override
		public void close() {
		}

	}

}
