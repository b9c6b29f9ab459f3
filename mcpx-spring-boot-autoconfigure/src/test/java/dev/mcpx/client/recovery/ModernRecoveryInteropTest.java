package dev.mcpx.client.recovery;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.Tool;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The modern era (2026-07-28) and its broken-stream re-issue (docs/architecture.md,
 * "Recovery rules" and "The replay gate"; 2026-07-28 changelog item 9) against the official TypeScript SDK v2 server, counted on the server
 * side; era detection against it and against the v1 (legacy) server.
 */
class ModernRecoveryInteropTest {

	private static NodePeer modern;

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("ts-v2", URI.create(modern.url()))
		.requestTimeout(Duration.ofSeconds(10)));

	@BeforeAll
	static void startServer() {
		modern = NodePeer.start(NodePeer.MODERN);
	}

	@AfterAll
	static void stopServer() {
		modern.close();
	}

	@BeforeEach
	void resetServer() {
		modern.reset();
	}

	private static int executions(String tool) {
		return modern.counts().path("executions").path(tool).asInt(0);
	}

	private static List<String> ids(String tool) {
		return modern.counts().path("ids").path(tool).valueStream().map(JsonNode::asString).toList();
	}

	@Test
	void autoDetectsTheModernEraAndSpeaksIt() {
		try (McpClient client = this.clients.client()) {
			List<Tool> tools = client.listTools();

			assertThat(tools).extracting(Tool::name).contains("echo", "set_value", "delete_item");
			assertThat(client.era()).contains(ProtocolEra.MODERN);
			assertThat(client.protocolVersion()).contains("2026-07-28");
			assertThat(client.callTool("echo", Map.of("text", "héllo wörld")).text()).isEqualTo("héllo wörld");
			assertThat(modern.counts().path("initialize").asInt()).isZero();
			assertThat(this.clients.events()).filteredOn(McpEraDetectedEvent.class::isInstance).singleElement()
				.satisfies((e) -> assertThat(((McpEraDetectedEvent) e).era()).isEqualTo(ProtocolEra.MODERN));
		}
	}

	@Test
	void autoDetectsTheLegacyEraAgainstTheV1Server() {
		try (NodePeer legacy = NodePeer.start(NodePeer.LEGACY);
				McpClient client = McpClient.builder("ts-v1", URI.create(legacy.url())).build()) {
			assertThat(client.callTool("echo", Map.of("text", "old")).text()).isEqualTo("old");
			assertThat(client.era()).contains(ProtocolEra.LEGACY);
			assertThat(legacy.counts().path("initialize").asInt()).isEqualTo(1);
		}
	}

	@Test
	void readOnlyAndIdempotentToolsWhoseStreamBrokeAreReissuedOnceWithANewId() {
		try (McpClient client = this.clients.client((b) -> b.protocol(ProtocolMode.MODERN))) {
			modern.cut("echo", 1);
			modern.cut("set_value", 1);

			// Never listed: the client lists tools itself to learn the annotations.
			assertThat(client.callTool("echo", Map.of("text", "twice")).text()).isEqualTo("twice");
			assertThat(client.callTool("set_value", Map.of("key", "k", "value", "v")).isError()).isFalse();

			assertThat(executions("echo")).isEqualTo(2);
			assertThat(executions("set_value")).isEqualTo(2);
			assertThat(ids("echo")).hasSize(2).doesNotHaveDuplicates();
			assertThat(ids("set_value")).hasSize(2).doesNotHaveDuplicates();
			assertThat(this.clients.events()).filteredOn(McpRequestReissuedEvent.class::isInstance)
				.extracting((e) -> ((McpRequestReissuedEvent) e).cause())
				.containsExactly(ReplayCause.STREAM_LOST, ReplayCause.STREAM_LOST);
		}
	}

	@Test
	void aDestructiveToolWhoseStreamBrokeRunsExactlyOnce() {
		try (McpClient client = this.clients.client((b) -> b.protocol(ProtocolMode.MODERN))) {
			client.listTools();
			modern.cut("delete_item", 1);

			assertThatThrownBy(() -> client.callTool("delete_item", Map.of("id", "1")))
				.isInstanceOf(McpStreamLostException.class)
				.hasMessageContaining("may have executed")
				.hasMessageContaining("was not re-issued");

			assertThat(executions("delete_item")).isEqualTo(1);
			assertThat(this.clients.events()).filteredOn(McpReissueRefusedEvent.class::isInstance).hasSize(1);
		}
	}

	@Test
	void perToolOverridesFlipBothOutcomes() {
		try (McpClient client = this.clients.client((b) -> b.protocol(ProtocolMode.MODERN)
			.recoveryPolicy(RecoveryPolicy.custom().resumptionAttempts(0)
				.tool("delete_item", ToolReplay.ALWAYS)
				.tool("echo", ToolReplay.NEVER)
				.build()))) {
			client.listTools();
			modern.cut("delete_item", 1);
			modern.cut("echo", 1);

			assertThat(client.callTool("delete_item", Map.of("id", "2")).isError()).isFalse();
			assertThatThrownBy(() -> client.callTool("echo", Map.of("text", "x")))
				.isInstanceOf(McpStreamLostException.class);

			assertThat(executions("delete_item")).isEqualTo(2);
			assertThat(executions("echo")).isEqualTo(1);
		}
	}

	@Test
	void anUnknownMethodIsMethodNotFoundNeverAnExpiredSession() {
		try (McpClient client = this.clients.client((b) -> b.protocol(ProtocolMode.MODERN))) {
			// The v2 server declares no prompts: 404 + -32601 (2026-07-28 §Protocol Version Header).
			assertThatThrownBy(() -> client.getPrompt("none", Map.of()))
				.isInstanceOfSatisfying(McpJsonRpcException.class, (ex) -> assertThat(ex.code()).isIn(-32601, -32602));
			assertThat(this.clients.events()).noneMatch((e) -> e instanceof dev.mcpx.client.event.McpSessionExpiredEvent);
		}
	}

}
