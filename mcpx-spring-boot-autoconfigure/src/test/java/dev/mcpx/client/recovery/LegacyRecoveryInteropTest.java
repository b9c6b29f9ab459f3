package dev.mcpx.client.recovery;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Legacy-era recovery (docs/architecture.md, "Recovery rules", "The replay gate"; 2025-11-25 transports §Session Management rules
 * 3-4, §Resumability and Redelivery) against the official TypeScript SDK v1 Streamable
 * HTTP server, counted on the server side.
 */
class LegacyRecoveryInteropTest {

	private static NodePeer server;

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("ts-v1", URI.create(server.url()))
		.requestTimeout(Duration.ofSeconds(10)));

	@BeforeAll
	static void startServer() {
		server = NodePeer.start(NodePeer.LEGACY);
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@BeforeEach
	void resetServer() {
		server.expireEverySession(false);
		server.reset();
	}

	private static int count(String path) {
		JsonNode counts = server.counts();
		return counts.at(path).asInt(0);
	}

	@Test
	void sixtyFourConcurrentCallersAfterTheServerForgetsItsSessionsShareOneInitialize() throws Exception {
		try (McpClient client = this.clients.client()) {
			client.ping();
			server.forgetSessions();
			server.reset();
			int callers = 64;
			ExecutorService pool = Executors.newFixedThreadPool(callers);
			CountDownLatch start = new CountDownLatch(1);
			try {
				List<Future<CallToolResult>> calls = new ArrayList<>();
				for (int i = 0; i < callers; i++) {
					String text = "caller-" + i;
					calls.add(pool.submit(() -> {
						start.await();
						return client.callTool("echo", Map.of("text", text));
					}));
				}
				start.countDown();
				for (int i = 0; i < callers; i++) {
					assertThat(calls.get(i).get().text()).isEqualTo("caller-" + i);
				}
			}
			finally {
				pool.shutdownNow();
			}

			assertThat(count("/initialize")).as("initializes the server saw").isEqualTo(1);
			assertThat(count("/executions/echo")).as("echo executions").isEqualTo(callers);
			assertThat(this.clients.events(McpSessionExpiredEvent.class)).singleElement()
				.satisfies((e) -> assertThat(e.generation()).isEqualTo(1));
			assertThat(this.clients.events(McpSessionRecoveredEvent.class)).singleElement().satisfies((e) -> {
				assertThat(e.oldGeneration()).isEqualTo(1);
				assertThat(e.newGeneration()).isEqualTo(2);
			});
		}
	}

	@Test
	void aDestructiveToolCalledAfterExpiryRunsExactlyOnce() {
		try (McpClient client = this.clients.client()) {
			client.ping();
			server.forgetSessions();
			server.reset();

			CallToolResult result = client.callTool("delete_item", Map.of("id", "42"));

			assertThat(result.text()).isEqualTo("deleted 42");
			// The 404 proves the server ran nothing in the dead session (docs/architecture.md, "The replay gate").
			assertThat(count("/executions/delete_item")).isEqualTo(1);
			assertThat(this.clients.events(McpRequestReissuedEvent.class)).singleElement()
				.satisfies((e) -> assertThat(e.cause()).isEqualTo(ReplayCause.SESSION_EXPIRED));
		}
	}

	@Test
	void aServerThatExpiresEverySessionGetsOneRetryOnly() {
		try (McpClient client = this.clients.client()) {
			client.ping();
			server.reset();
			server.expireEverySession(true);

			assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(client::ping)
				.isInstanceOfSatisfying(McpSessionExpiredException.class, (ex) -> {
					assertThat(ex.getMessage()).contains("again on its one retry");
					assertThat(ex.generation()).isEqualTo(2);
					assertThat(ex.getSuppressed()).isNotEmpty();
				}));
			assertThat(count("/initialize")).isEqualTo(1);
			assertThat(count("/requests/ping")).isEqualTo(2);
		}
	}

	@Test
	void aPerToolNeverOverrideRefusesTheReplayAfterExpiry() {
		try (McpClient client = this.clients.client((b) -> b.recoveryPolicy(RecoveryPolicy.custom()
				.tool("delete_item", ToolReplay.NEVER)
				.build()))) {
			// Listed first: the call itself must be what meets the expired session.
			client.listTools();
			server.forgetSessions();
			server.reset();

			assertThatThrownBy(() -> client.callTool("delete_item", Map.of("id", "1")))
				.isInstanceOf(McpSessionExpiredException.class)
				.hasMessageContaining("never to be re-sent");
			assertThat(count("/executions/delete_item")).isZero();
			assertThat(this.clients.events(McpReissueRefusedEvent.class)).singleElement()
				.satisfies((e) -> assertThat(e.tool()).isEqualTo("delete_item"));
			// The session itself was recovered: the next call works without another handshake.
			assertThat(client.callTool("echo", Map.of("text", "after")).text()).isEqualTo("after");
			assertThat(count("/initialize")).isEqualTo(1);
		}
	}

	@Test
	void aStreamCutAfterItsPrimingEventIsResumedNotReissued() {
		try (McpClient client = this.clients.client()) {
			client.ping();
			server.reset();
			server.cut("delete_item", 1, true);

			CallToolResult result = client.callTool("delete_item", Map.of("id", "7"));

			// 2025-11-25 §Resumability: GET + Last-Event-ID replays the lost response.
			assertThat(result.text()).isEqualTo("deleted 7");
			assertThat(count("/executions/delete_item")).isEqualTo(1);
			assertThat(count("/resumes")).isGreaterThanOrEqualTo(1);
			assertThat(this.clients.events(McpRequestReissuedEvent.class)).isEmpty();
			assertThat(this.clients.events(dev.mcpx.client.event.McpStreamResumedEvent.class)).singleElement()
				.satisfies((e) -> assertThat(e.method()).isEqualTo("tools/call"));
		}
	}

	@Test
	void aDestructiveToolWhoseStreamIsLostIsNotReissued() {
		try (McpClient client = this.clients.client()) {
			client.listTools();
			server.reset();
			server.cut("delete_item", 1);

			assertThatThrownBy(() -> client.callTool("delete_item", Map.of("id", "9")))
				.isInstanceOf(McpStreamLostException.class)
				.hasMessageContaining("may have executed")
				.hasMessageContaining("not re-issued");
			assertThat(count("/executions/delete_item")).isEqualTo(1);
			assertThat(this.clients.events(McpReissueRefusedEvent.class)).singleElement()
				.satisfies((e) -> assertThat(e.cause()).isEqualTo(ReplayCause.STREAM_LOST));
		}
	}

	@Test
	void readOnlyAndIdempotentToolsWhoseStreamIsLostAreReissuedOnce() {
		try (McpClient client = this.clients.client()) {
			// Never listed: the client lists tools itself to learn the annotations.
			client.ping();
			server.reset();
			server.cut("echo", 1);
			server.cut("set_value", 1);

			assertThat(client.callTool("echo", Map.of("text", "again")).text()).isEqualTo("again");
			assertThat(client.callTool("set_value", Map.of("key", "k", "value", "v")).isError()).isFalse();

			assertThat(count("/executions/echo")).isEqualTo(2);
			assertThat(count("/executions/set_value")).isEqualTo(2);
			assertThat(count("/requests/tools~1list")).isEqualTo(1);
			assertThat(this.clients.events(McpRequestReissuedEvent.class)).extracting(McpRequestReissuedEvent::tool)
				.containsExactly("echo", "set_value");
		}
	}

	@Test
	void perToolOverridesFlipBothOutcomes() {
		try (McpClient client = this.clients.client((b) -> b.recoveryPolicy(RecoveryPolicy.custom()
				.tool("delete_item", ToolReplay.ALWAYS)
				.tool("echo", ToolReplay.NEVER)
				.build()))) {
			client.listTools();
			server.reset();
			server.cut("delete_item", 1);
			server.cut("echo", 1);

			assertThat(client.callTool("delete_item", Map.of("id", "3")).text()).isEqualTo("deleted 3");
			assertThatThrownBy(() -> client.callTool("echo", Map.of("text", "x")))
				.isInstanceOf(McpStreamLostException.class);

			assertThat(count("/executions/delete_item")).isEqualTo(2);
			assertThat(count("/executions/echo")).isEqualTo(1);
		}
	}

	@Test
	void untrustedAnnotationsNeverJustifyAReissue() {
		try (McpClient client = this.clients.client((b) -> b.recoveryPolicy(RecoveryPolicy.custom().trustAnnotations(false)
				.build()))) {
			client.listTools();
			server.reset();
			server.cut("echo", 1);

			assertThatThrownBy(() -> client.callTool("echo", Map.of("text", "x")))
				.isInstanceOf(McpStreamLostException.class)
				.hasMessageContaining("not trusted");
			assertThat(count("/executions/echo")).isEqualTo(1);
		}
	}

	@Test
	void aLostReadShapedRequestIsReissued() {
		try (McpClient client = this.clients.client()) {
			client.ping();
			server.reset();
			server.forgetSessions(true);

			// The dead session's 404 is recovered; listing works in the new session.
			assertThat(client.listTools()).isNotEmpty();
			assertThat(count("/initialize")).isEqualTo(1);
		}
	}

}
