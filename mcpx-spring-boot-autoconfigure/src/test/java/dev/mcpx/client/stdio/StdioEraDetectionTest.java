package dev.mcpx.client.stdio;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.testsupport.StdioPeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Era detection over stdio (2026-07-28 basic/transports/stdio §Backward Compatibility): a
 * legacy server may answer the {@code server/discover} probe with an error of any shape, or
 * not at all; either is a legacy server, and {@code initialize} follows on the same process
 * ("The fallback MUST NOT be keyed to one specific error code"). The peer is the TypeScript
 * SDK v1 legacy server ({@code stdio-server.mjs}) with its answer to the probe replaced; it
 * logs every start, message and execution, so the test counts what the server received.
 */
class StdioEraDetectionTest {

	@TempDir
	Path dir;

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	private Path log() {
		return this.dir.resolve("peer.log");
	}

	private McpClient client(String discoverAnswer, Duration handshakeTimeout) {
		StdioCommand command = StdioPeer.command(log());
		command = command.withEnv(Map.of("MCPX_STDIO_LOG", log().toString(), "MCPX_STDIO_DISCOVER", discoverAnswer));
		return McpClient.stdio("files", command)
			.requestTimeout(Duration.ofSeconds(30))
			.handshakeTimeout(handshakeTimeout)
			.eventListener(this.events::add)
			.build();
	}

	private long received(String method) {
		return StdioPeer.entries(log())
			.stream()
			.filter((e) -> e.path("type").asString("").equals("received") && e.path("method").asString("").equals(method))
			.count();
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"error\":\"Method not found\"}",
			"{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"error\":{\"message\":\"an error without a code\"}}",
			"{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"error\":{\"code\":\"-32601\",\"message\":\"a code as text\"}}",
			"{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"error\":null}",
			"{\"id\":\"ID\",\"error\":{\"code\":-32601,\"message\":\"no jsonrpc member\"}}",
			"{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"error\":{\"code\":-32602,\"message\":\"Invalid params\"}}",
			"{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"error\":{\"code\":-32000,\"message\":\"Server not initialized\"}}",
			"{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"error\":{\"code\":-32042,\"message\":\"a 2025-11-25 code\"}}" })
	void anErrorOfAnyShapeAnsweringTheProbeIdentifiesALegacyServerAtOnce(String answer) {
		try (McpClient client = client(answer, Duration.ofSeconds(20))) {
			assertThat(client.callTool("read_value", Map.of("key", "a")).text()).isEqualTo("value a");
			assertThat(client.era()).contains(ProtocolEra.LEGACY);
		}
		assertThat(StdioPeer.starts(log())).isEqualTo(1);
		assertThat(received("server/discover")).isEqualTo(1);
		assertThat(received("initialize")).isEqualTo(1);
		assertThat(StdioPeer.executions(log(), "read_value")).isEqualTo(1);
		// Taken as an answer, not waited out: a probe that timed out would have been cancelled.
		assertThat(received("notifications/cancelled")).isZero();
		assertThat(this.events).filteredOn(McpEraDetectedEvent.class::isInstance)
			.extracting((e) -> ((McpEraDetectedEvent) e).era())
			.containsExactly(ProtocolEra.LEGACY);
	}

	@Test
	void aProbeLeftUnansweredUntilTheTimeoutIdentifiesALegacyServerOnTheSameProcess() {
		try (McpClient client = client("silent", Duration.ofSeconds(2))) {
			assertThat(client.callTool("read_value", Map.of("key", "b")).text()).isEqualTo("value b");
			assertThat(client.era()).contains(ProtocolEra.LEGACY);
		}
		assertThat(StdioPeer.starts(log())).isEqualTo(1);
		assertThat(received("server/discover")).isEqualTo(1);
		assertThat(received("initialize")).isEqualTo(1);
		assertThat(received("notifications/cancelled")).isEqualTo(1);
	}

}
