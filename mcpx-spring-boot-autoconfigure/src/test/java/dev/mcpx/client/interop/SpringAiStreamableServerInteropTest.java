package dev.mcpx.client.interop;

import dev.mcpx.testsupport.SpringAiServerPeer.Mode;

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

}
