package dev.mcpx.client.interop;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpStreamNotResumableEvent;
import dev.mcpx.client.event.ReplayCause;
import dev.mcpx.testsupport.SpringAiServerPeer.Mode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AI's MCP server with sessions ({@code spring.ai.mcp.server.protocol=STREAMABLE}).
 */
class SpringAiStreamableServerInteropTest extends SpringAiServerInteropTest {

	@Override
	Mode mode() {
		return Mode.STREAMABLE;
	}

	/** Every caller met the forgotten session; one {@code initialize} serves them all. */
	@Override
	int initializesAfterARestart() {
		return 1;
	}

	/**
	 * This server names the event of a response by the session id ({@code id:}), and a GET
	 * with {@code Last-Event-ID} replays nothing (docs/interop.md, "Spring AI's MCP server"):
	 * a stream cut after such an {@code id:} line, here after a complete event (the server's
	 * ping) and inside the answer's, cannot be resumed, so no resumption is tried and the read
	 * is sent again at once.
	 */
	@Test
	void aStreamCutAfterAnEventWhoseIdIsTheSessionIdIsNotResumedAndTheReadIsSentAgain() {
		try (McpClient client = client(ProtocolMode.AUTO, this.proxy.url("/mcp"))) {
			client.listTools();
			this.proxy.cutInsideEvent("echo_after_ping", 2);

			assertThat(client.callTool("echo_after_ping", Map.of("text", "once more")).text()).isEqualTo("once more");

			assertThat(this.proxy.lost()).isEqualTo(1);
			assertThat(this.server.executions("echo_after_ping")).isEqualTo(2);
			assertThat(this.server.resumptions()).isZero();
			assertThat(events(McpStreamNotResumableEvent.class)).singleElement()
				.satisfies((e) -> assertThat(e.method()).isEqualTo("tools/call"));
			assertThat(events(McpRequestReissuedEvent.class)).singleElement()
				.satisfies((e) -> assertThat(e.cause()).isEqualTo(ReplayCause.STREAM_LOST));
		}
	}

}
