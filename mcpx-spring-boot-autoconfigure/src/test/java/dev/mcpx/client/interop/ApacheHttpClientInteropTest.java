package dev.mcpx.client.interop;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.testsupport.NodePeer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application whose {@code RestClient} runs on Apache HttpClient 5 (Spring Boot's choice
 * when it is on the class path), against the official TypeScript servers: closing the client
 * ends its endless listen stream (the legacy GET stream, the 2026-07-28
 * {@code subscriptions/listen} stream) instead of draining it, as HttpClient 5's
 * {@code close()} would do, forever.
 */
class ApacheHttpClientInteropTest {

	/** A bound on close, far above its own 2 s DELETE bound: only a hang reaches it. */
	private static final long CLOSE_BOUND_SECONDS = 30;

	private NodePeer peer;

	@AfterEach
	void stop() {
		if (this.peer != null) {
			this.peer.close();
		}
	}

	@Test
	void closingALegacyClientEndsItsGetStreamInsteadOfDrainingIt() throws Exception {
		this.peer = NodePeer.start(NodePeer.LEGACY);
		closesWhileListening(ProtocolMode.LEGACY, (counts) -> counts.path("gets").asInt());
	}

	@Test
	void closingAModernClientEndsItsListenStreamInsteadOfDrainingIt() throws Exception {
		this.peer = NodePeer.start(NodePeer.MODERN);
		closesWhileListening(ProtocolMode.MODERN,
				(counts) -> counts.path("requests").path("subscriptions/listen").asInt());
	}

	private void closesWhileListening(ProtocolMode protocol, ToIntFunction<JsonNode> listens) throws Exception {
		McpClient client = McpClient.builder("hc5", URI.create(this.peer.url()))
			.protocol(protocol)
			.restClientBuilder(RestClient.builder().requestFactory(new HttpComponentsClientHttpRequestFactory()))
			.build();
		assertThat(client.listTools()).isNotEmpty();
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_BOUND_SECONDS);
		while (listens.applyAsInt(this.peer.counts()) == 0 && System.nanoTime() < until) {
			Thread.sleep(20);
		}
		assertThat(listens.applyAsInt(this.peer.counts())).as("listen streams the server saw").isEqualTo(1);
		CompletableFuture<Void> closed = CompletableFuture.runAsync(client::close);
		closed.get(CLOSE_BOUND_SECONDS, TimeUnit.SECONDS);
		assertThat(closed).isCompleted();
		// the client's one connection pool still works for a new client: nothing was left blocked
		try (McpClient again = McpClient.builder("hc5-again", URI.create(this.peer.url()))
			.protocol(protocol)
			.listenForChanges(false)
			.requestTimeout(Duration.ofSeconds(10))
			.restClientBuilder(RestClient.builder().requestFactory(new HttpComponentsClientHttpRequestFactory()))
			.build()) {
			assertThat(again.listTools()).isNotEmpty();
		}
	}

}
