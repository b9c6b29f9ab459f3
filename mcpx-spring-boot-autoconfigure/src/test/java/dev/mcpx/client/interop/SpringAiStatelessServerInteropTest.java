package dev.mcpx.client.interop;

import dev.mcpx.testsupport.SpringAiServerPeer.Mode;

/**
 * Spring AI's MCP server without sessions ({@code spring.ai.mcp.server.protocol=STATELESS}):
 * it answers {@code initialize} but mints no session id and ignores one sent; it answers the
 * modern probe with HTTP 500 and a serialized Java exception.
 */
class SpringAiStatelessServerInteropTest extends SpringAiServerInteropTest {

	@Override
	Mode mode() {
		return Mode.STATELESS;
	}

	/** No session to forget: the restarted server answers the next calls as they come. */
	@Override
	int initializesAfterARestart() {
		return 0;
	}

}
