package dev.mcpx.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Runs the legacy-era client scenarios of the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance} 0.2.0-alpha.12, installed in {@code src/test/node})
 * against {@link ConformanceClient}, at spec revision 2025-11-25 (the suite's default for
 * scenarios that exist before 2026):
 * <ul>
 * <li>{@code initialize}: the client sends {@code initialize} with a supported
 * {@code protocolVersion} and a {@code clientInfo} with name and version
 * (2025-11-25 basic/lifecycle §Initialization, §Version Negotiation);</li>
 * <li>{@code tools_call}: the client calls {@code add_numbers} with numeric {@code a} and
 * {@code b}, and every JSON-RPC message it sends validates against the 2025-11-25 schema
 * (2025-11-25 server/tools §Calling Tools);</li>
 * <li>{@code sse-retry}: the server closes the {@code tools/call} SSE stream after a priming
 * event with {@code retry: 500}; the client must reconnect with GET, no earlier than the retry
 * time (MUST), sending {@code Last-Event-ID} (SHOULD) (2025-11-25 basic/transports §Sending
 * Messages to the Server, rule 6; §Resumability and Redelivery, rule 2);</li>
 * <li>{@code json-schema-2020-12-preservation}: the client lists tools and sends the input
 * schema of {@code json_schema_2020_12_tool} back verbatim through {@code json_schema_echo};
 * {@code $schema}, {@code $defs} and {@code additionalProperties} must survive its parsing
 * (2025-11-25 server/tools §Tool, {@code inputSchema}; SEP-1613; the SEP-2106 keyword checks are
 * SKIPPED, not failed, at 2025-11-25 when missing);</li>
 * <li>{@code elicitation-sep1034-client-defaults}: the server elicits on a tool call's response
 * stream with defaults for every field; the input handler accepts without content and the
 * client fills in the defaults (2025-11-25 client/elicitation; SEP-1034).</li>
 * </ul>
 * Each scenario runs at every legacy revision the suite lists for it: {@code initialize} and
 * {@code tools_call} also at 2025-06-18.
 * How a scenario is run and judged is {@link ConformanceSuite}'s: the suite exits {@code 0}, no
 * check is {@code FAILURE} or {@code WARNING}, at least one is {@code SUCCESS}. The client speaks
 * {@link dev.mcpx.client.ProtocolMode#LEGACY} here, chosen from the revision the suite names.
 *
 * @see ModernConformanceTest
 */
class LegacyConformanceTest {

	@ParameterizedTest(name = "{0} at {1}")
	@CsvSource({ "initialize, 2025-06-18", "initialize, 2025-11-25", "tools_call, 2025-06-18", "tools_call, 2025-11-25",
			"sse-retry, 2025-11-25", "json-schema-2020-12-preservation, 2025-11-25",
			"elicitation-sep1034-client-defaults, 2025-11-25" })
	void legacyClientScenarioPasses(String scenario, String specVersion) throws Exception {
		ConformanceSuite.assertClientScenarioPasses(scenario, specVersion);
	}

}
