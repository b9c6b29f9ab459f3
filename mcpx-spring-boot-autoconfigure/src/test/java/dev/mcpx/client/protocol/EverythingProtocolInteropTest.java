package dev.mcpx.client.protocol;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpCallOptions;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.client.model.McpResourceUpdate;
import dev.mcpx.client.model.Tool;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ScriptedInputHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The client protocol of the legacy era against the official {@code server-everything}
 * (Streamable HTTP): it registers its elicitation and sampling tools only for a client that
 * declared those capabilities in {@code initialize}, echoes the answers it received in its
 * results, reports progress from its long-running tool, and sends updates of subscribed
 * resources; after a restart (every session forgotten, answered 400) it knows a resource as
 * subscribed only because the client subscribed again in the new session.
 */
class EverythingProtocolInteropTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private NodePeer everything;

	@BeforeEach
	void start() {
		this.everything = NodePeer.startEverything();
	}

	@AfterEach
	void stop() {
		if (this.everything != null) {
			this.everything.close();
		}
	}

	@Test
	void elicitationAndSamplingAreDeclaredAndAnsweredAndTheServerEchoesTheAnswers() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(
				Set.of("elicitation/create", "sampling/createMessage"),
				(request) -> request.method().equals("sampling/createMessage")
						? ScriptedInputHandler.sampled("mcpx-test", "sampled by mcpx")
						: ScriptedInputHandler.accept("{\"name\":\"Grace Hopper\",\"check\":true}"));
		try (McpClient client = client().inputHandler(handler).build()) {
			assertThat(client.listTools()).extracting(Tool::name)
				.contains("trigger-elicitation-request", "trigger-sampling-request");
			CallToolResult elicited = client.callTool("trigger-elicitation-request", Map.of());
			assertThat(elicited.text()).contains("- Name: Grace Hopper")
				// the field the answer left out, filled with the schema's default by the client
				.contains("It was a dark and stormy night.");
			CallToolResult sampled = client.callTool("trigger-sampling-request", Map.of("prompt", "hello"));
			assertThat(sampled.text()).contains("sampled by mcpx");
		}
	}

	@Test
	void withoutAnInputHandlerTheServerOffersNoToolThatAsks() {
		try (McpClient client = client().build()) {
			assertThat(client.listTools()).extracting(Tool::name)
				.doesNotContain("trigger-elicitation-request", "trigger-sampling-request");
		}
	}

	@Test
	void itsLongRunningOperationOutlivesTheTimeoutWhileItReportsProgress() {
		List<McpProgress> progress = new CopyOnWriteArrayList<>();
		try (McpClient client = client().build()) {
			CallToolResult result = client.callTool("trigger-long-running-operation",
					Map.of("duration", 3, "steps", 6),
					McpCallOptions.builder().timeout(Duration.ofMillis(1200)).onProgress(progress::add).build());
			assertThat(result.text()).contains("Long running operation completed");
		}
		assertThat(progress).extracting(McpProgress::progress).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
	}

	@Test
	void aSubscriptionIsEstablishedAgainAfterTheServerRestarted() {
		String uri = "demo://resource/dynamic/text/1";
		List<McpResourceUpdate> updates = new CopyOnWriteArrayList<>();
		try (McpClient client = client().build()) {
			client.subscribe(uri, updates::add);
			client.callTool("toggle-subscriber-updates", Map.of());
			awaitTrue(() -> updates.contains(new McpResourceUpdate(uri, false)), "no update arrived");

			int port = this.everything.port();
			this.everything.close();
			this.everything = NodePeer.startEverything(port);
			updates.clear();
			client.ping();
			awaitTrue(() -> updates.contains(new McpResourceUpdate(uri, true)),
					"no update marked 'may have missed updates' after the recovery");
			// the restarted server sends updates only for the resources a session subscribed to
			client.callTool("toggle-subscriber-updates", Map.of());
			awaitTrue(() -> updates.contains(new McpResourceUpdate(uri, false)),
					"the restarted server sent no update: the subscription was not established again");
		}
	}

	private dev.mcpx.client.McpClientBuilder client() {
		return McpClient.builder("everything", URI.create(this.everything.url()))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(15));
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
