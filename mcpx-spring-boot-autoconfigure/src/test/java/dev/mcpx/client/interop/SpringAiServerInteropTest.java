package dev.mcpx.client.interop;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.Tool;
import dev.mcpx.testsupport.ResponseLosingProxy;
import dev.mcpx.testsupport.SpringAiServerPeer;
import dev.mcpx.testsupport.SpringAiServerPeer.Mode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Interoperability with the MCP server most Spring teams run: Spring AI 2.0.1's own server
 * starter (on the MCP Java SDK 2.0.0), its tools declared with Spring AI's {@code @McpTool},
 * in a process of its own ({@link SpringAiServerPeer}). Everything is counted on the server.
 * One subclass per mode of the server ({@code spring.ai.mcp.server.protocol}); how the two
 * modes answer: docs/interop.md, "Spring AI's MCP server".
 */
abstract class SpringAiServerInteropTest {

	private static final int CALLERS = 16;

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	SpringAiServerPeer server;

	ResponseLosingProxy proxy;

	/** The server's mode. */
	abstract Mode mode();

	/**
	 * The {@code initialize} requests one recovery of a restart costs: one for every caller
	 * of a session, none where there is no session to lose.
	 */
	abstract int initializesAfterARestart();

	@BeforeEach
	void startServer() {
		this.server = SpringAiServerPeer.shared(mode());
		this.server.reset();
		this.proxy = ResponseLosingProxy.to(this.server.port());
	}

	@AfterEach
	void stopProxy() {
		this.proxy.close();
	}

	private McpClient client(ProtocolMode protocol) {
		return client(protocol, this.server.url());
	}

	McpClient client(ProtocolMode protocol, String url) {
		return McpClient.builder("spring-ai", URI.create(url))
			.protocol(protocol)
			.requestTimeout(Duration.ofSeconds(15))
			.eventListener(this.events::add)
			.build();
	}

	<T extends McpEvent> List<T> events(Class<T> type) {
		return this.events.stream().filter(type::isInstance).map(type::cast).toList();
	}

	@Test
	void theFirstCallInAutoModeDetectsALegacyServerAndInitializesOnce() {
		try (McpClient client = client(ProtocolMode.AUTO)) {
			assertThat(client.callTool("echo", Map.of("text", "hello")).text()).isEqualTo("hello");

			assertThat(client.era()).contains(ProtocolEra.LEGACY);
			// 2026-07-28 basic/versioning §Backward Compatibility: one modern probe, then the
			// legacy handshake. The server answers the probe with a serialized Java exception,
			// no JSON-RPC (docs/interop.md, "Spring AI's MCP server").
			assertThat(this.server.requests("server/discover")).isEqualTo(1);
			assertThat(this.server.requests("initialize")).isEqualTo(1);
			assertThat(this.server.executions("echo")).isEqualTo(1);
		}
	}

	@Test
	void theFirstCallInLegacyModeInitializesOnceAndTheAnnotationsArriveIntact() {
		try (McpClient client = client(ProtocolMode.LEGACY)) {
			List<Tool> tools = client.listTools();

			assertThat(client.callTool("echo", Map.of("text", "hello")).text()).isEqualTo("hello");
			assertThat(client.serverInfo()).hasValueSatisfying((info) -> assertThat(info.name()).isEqualTo("spring-ai-peer"));
			assertThat(tools).extracting(Tool::name).containsExactlyInAnyOrderElementsOf(this.server.tools());
			assertThat(tool(tools, "echo").annotations().isReadOnly()).isTrue();
			assertThat(tool(tools, "set_value").annotations().isIdempotent()).isTrue();
			assertThat(tool(tools, "set_value").annotations().destructiveHint()).isFalse();
			assertThat(tool(tools, "delete_item").annotations().destructiveHint()).isTrue();
			assertThat(this.server.requests("server/discover")).isZero();
			assertThat(this.server.requests("initialize")).isEqualTo(1);
			assertThat(this.server.executions("echo")).isEqualTo(1);
		}
	}

	@Test
	void readOnlyAndIdempotentToolsWhoseResponseIsLostAreSentAgainAndRunOnceMore() {
		try (McpClient client = client(ProtocolMode.AUTO, this.proxy.url("/mcp"))) {
			client.listTools();
			this.proxy.loseResponseOf("echo", 1);
			this.proxy.loseResponseOf("set_value", 1);

			assertThat(client.callTool("echo", Map.of("text", "again")).text()).isEqualTo("again");
			assertThat(client.callTool("set_value", Map.of("key", "k", "value", "v")).isError()).isFalse();

			assertThat(this.proxy.lost()).isEqualTo(2);
			// docs/architecture.md, "The replay gate": trusted readOnlyHint / idempotentHint
			assertThat(this.server.executions("echo")).isEqualTo(2);
			assertThat(this.server.executions("set_value")).isEqualTo(2);
			assertThat(events(McpRequestReissuedEvent.class)).extracting(McpRequestReissuedEvent::tool)
				.containsExactly("echo", "set_value");
			assertThat(events(McpRequestReissuedEvent.class)).extracting(McpRequestReissuedEvent::cause)
				.containsOnly(ReplayCause.STREAM_LOST);
		}
	}

	@Test
	void aDestructiveToolWhoseResponseIsLostIsNotSentAgainAndRanOnce() {
		try (McpClient client = client(ProtocolMode.AUTO, this.proxy.url("/mcp"))) {
			client.listTools();
			this.proxy.loseResponseOf("delete_item", 1);

			assertThatThrownBy(() -> client.callTool("delete_item", Map.of("id", "42")))
				.isInstanceOf(McpStreamLostException.class)
				.hasMessageContaining("may have executed")
				.hasMessageContaining("not re-issued");

			assertThat(this.proxy.lost()).isEqualTo(1);
			assertThat(this.server.executions("delete_item")).isEqualTo(1);
			assertThat(events(McpReissueRefusedEvent.class)).singleElement().satisfies((e) -> {
				assertThat(e.tool()).isEqualTo("delete_item");
				assertThat(e.cause()).isEqualTo(ReplayCause.STREAM_LOST);
			});
		}
	}

	/**
	 * One restart for two checks, as a start of this server costs seconds: the call in flight
	 * when the process died, then the callers after it came back.
	 */
	@Test
	void aCrashLosesOnlyTheCallInFlightAndSixteenCallersAfterTheRestartShareOneRecovery() throws Exception {
		try (McpClient client = client(ProtocolMode.AUTO)) {
			client.listTools();
			this.server.haltOnNextCallOf("delete_item");

			assertThatThrownBy(() -> client.callTool("delete_item", Map.of("id", "7")))
				.isInstanceOf(McpStreamLostException.class)
				.hasMessageContaining("not re-issued");
			assertThat(this.server.awaitExit()).isEqualTo(SpringAiServerPeer.HALT_STATUS);
			assertThat(this.server.executions("delete_item")).isEqualTo(1);

			this.server.restart();
			this.server.reset();
			List<String> answers = callConcurrently(client);

			assertThat(answers).containsExactlyInAnyOrderElementsOf(expectedAnswers());
			assertThat(this.server.executions("echo")).isEqualTo(CALLERS);
			// 2025-11-25 basic/transports §Session Management rules 3-4: the restarted server
			// answers the forgotten session with 404 (its body a serialized exception, not
			// JSON-RPC); the callers of that session share one new one.
			assertThat(this.server.requests("initialize")).isEqualTo(initializesAfterARestart());
			assertThat(events(McpSessionExpiredEvent.class)).hasSize(initializesAfterARestart());
			assertThat(events(McpSessionRecoveredEvent.class)).hasSize(initializesAfterARestart());
			assertThat(this.server.executions("delete_item")).isZero();
		}
	}

	private static List<String> callConcurrently(McpClient client) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<CallToolResult>> calls = new ArrayList<>();
			for (int i = 0; i < CALLERS; i++) {
				String text = "caller-" + i;
				calls.add(pool.submit(() -> {
					start.await();
					return client.callTool("echo", Map.of("text", text));
				}));
			}
			start.countDown();
			List<String> answers = new ArrayList<>();
			for (Future<CallToolResult> call : calls) {
				answers.add(call.get().text());
			}
			return answers;
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static List<String> expectedAnswers() {
		List<String> answers = new ArrayList<>();
		for (int i = 0; i < CALLERS; i++) {
			answers.add("caller-" + i);
		}
		return answers;
	}

	private static Tool tool(List<Tool> tools, String name) {
		return tools.stream().filter((t) -> t.name().equals(name)).findFirst().orElseThrow();
	}

}
