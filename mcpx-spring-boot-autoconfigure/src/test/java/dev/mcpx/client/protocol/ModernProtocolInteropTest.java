package dev.mcpx.client.protocol;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpCallOptions;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.McpSubscription;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.client.model.McpResourceUpdate;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ScriptedInputHandler;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The client protocol of the modern era (2026-07-28) against the TypeScript SDK v2 peer
 * {@code modern-protocol-server.mjs}: input asked for in a result and answered through the same
 * input handler as legacy server requests (basic/patterns/mrtr), progress that keeps a call
 * alive and cancellation by a closed stream (basic/patterns/progress, cancellation), resource
 * updates on {@code subscriptions/listen}, opened again after the stream broke
 * (basic/patterns/subscriptions). Each test asserts what the server saw.
 */
class ModernProtocolInteropTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private NodePeer peer;

	@BeforeEach
	void startPeer() {
		this.peer = NodePeer.start("modern-protocol-server.mjs");
	}

	@AfterEach
	void stopPeer() {
		if (this.peer != null) {
			this.peer.close();
		}
	}

	@Test
	void inputAskedForInAResultIsAnsweredThroughTheInputHandlerWithTheFormsDefaults() {
		ScriptedInputHandler handler = ScriptedInputHandler.acceptingForms("{\"name\":\"Grace\"}");
		try (McpClient client = client().inputHandler(handler).build()) {
			CallToolResult result = client.callTool("ask_name", Map.of());
			assertThat(result.isError()).as(result.text()).isFalse();
		}
		JsonNode content = protocol().path("elicitations").get(0).path("content");
		assertThat(content.path("name").asString()).isEqualTo("Grace");
		assertThat(content.path("age").asInt()).isEqualTo(36);
	}

	@Test
	void aToolThatReportsProgressForLongerThanItsTimeoutCompletes() {
		List<McpProgress> progress = new CopyOnWriteArrayList<>();
		try (McpClient client = client().build()) {
			CallToolResult result = client.callTool("report_progress", Map.of("steps", 6, "intervalMs", 400),
					McpCallOptions.builder().timeout(Duration.ofMillis(1000)).onProgress(progress::add).build());
			assertThat(result.text()).isEqualTo("done after 6 steps");
		}
		assertThat(protocol().path("completed").path("report_progress").asInt()).isEqualTo(1);
		assertThat(protocol().path("cancelled").asInt()).isZero();
		assertThat(progress).extracting(McpProgress::progress).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
	}

	@Test
	void interruptingTheCallerClosesTheStreamWhichCancelsTheCallAndItIsNotSentAgain() throws Exception {
		try (McpClient client = client().build()) {
			client.listTools();
			Throwable[] failure = new Throwable[1];
			boolean[] flag = new boolean[1];
			Thread thread = new Thread(() -> {
				try {
					client.callTool("wait_for_cancel", Map.of("ms", 30_000), McpCallOptions.defaults());
				}
				catch (RuntimeException ex) {
					failure[0] = ex;
					flag[0] = Thread.currentThread().isInterrupted();
				}
			});
			thread.start();
			awaitTrue(() -> this.peer.counts().path("executions").path("wait_for_cancel").asInt() == 1,
					"the tool did not start");
			thread.interrupt();
			thread.join(WAIT.toMillis());
			assertThat(failure[0]).isInstanceOf(McpCancelledException.class);
			assertThat(flag[0]).isTrue();
			// 2026-07-28 basic/patterns/cancellation: over HTTP the closed stream is the cancellation
			awaitTrue(() -> protocol().path("cancelled").asInt() == 1, "the server did not see the cancellation");
			assertThat(this.peer.counts().path("executions").path("wait_for_cancel").asInt()).isEqualTo(1);
			assertThat(this.peer.counts().path("requests").path("notifications/cancelled").asInt()).isZero();
		}
	}

	@Test
	void aSubscriptionRidesTheListenStreamAndComesBackWhenTheStreamBroke() {
		List<McpResourceUpdate> updates = new CopyOnWriteArrayList<>();
		try (McpClient client = client().build()) {
			McpSubscription subscription = client.subscribe("demo://counter", updates::add);
			awaitTrue(() -> {
				this.peer.admin("POST", "touch");
				return updates.contains(new McpResourceUpdate("demo://counter", false));
			}, "no update arrived on the listen stream");
			assertThat(protocol().path("listens")).anySatisfy((filter) -> assertThat(
					filter.path("resourceSubscriptions").get(0).asString()).isEqualTo("demo://counter"));

			// the server restarts: every stream breaks; the client opens the listen stream again
			this.peer = this.peer.restart();
			updates.clear();
			awaitTrue(() -> updates.contains(new McpResourceUpdate("demo://counter", true)),
					"no update marked 'may have missed updates' after the stream was opened again");
			awaitTrue(() -> {
				this.peer.admin("POST", "touch");
				return updates.contains(new McpResourceUpdate("demo://counter", false));
			}, "no update arrived on the reopened stream");
			assertThat(protocol().path("listens")).anySatisfy((filter) -> assertThat(
					filter.path("resourceSubscriptions").get(0).asString()).isEqualTo("demo://counter"));
			subscription.close();
		}
	}

	private McpClientBuilder client() {
		return McpClient.builder("modern-protocol", URI.create(this.peer.url()))
			.protocol(ProtocolMode.MODERN)
			.requestTimeout(Duration.ofSeconds(15));
	}

	private JsonNode protocol() {
		return this.peer.admin("GET", "protocol");
	}

	private static void awaitTrue(BooleanSupplier condition, String failure) {
		long deadline = System.nanoTime() + WAIT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				fail(failure + " within " + WAIT.toSeconds() + " s");
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				fail("interrupted");
			}
		}
	}

}
