package dev.mcpx.conformance;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the modern-era client scenarios of the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance} 0.2.0-alpha.12, installed in {@code src/test/node})
 * against {@link ConformanceClient}, at spec revision 2026-07-28, where the client speaks
 * {@link dev.mcpx.client.ProtocolMode#MODERN}:
 * <ul>
 * <li>{@code tools_call}: the client calls {@code add_numbers} with numeric {@code a} and
 * {@code b} on the suite's stateless mock, and every message it sends validates against the
 * 2026-07-28 schema ({@code params._meta} with {@code protocolVersion} and
 * {@code clientCapabilities} on every request, {@code tools/list} included);</li>
 * <li>{@code request-metadata}: the first request is refused with HTTP 400 and {@code -32022};
 * the client retries with a supported version; every request carries
 * {@code MCP-Protocol-Version} equal to {@code _meta} {@code protocolVersion}, and
 * {@code clientInfo} and well-formed {@code clientCapabilities} (2026-07-28 basic §_meta,
 * basic/versioning, transports/streamable-http §Protocol Version Header);</li>
 * <li>{@code sep-2322-client-request-state}: multi-round tool calls: {@code requestState}
 * echoed exactly, omitted when the server sent none, a new JSON-RPC id per round, nothing of
 * one request's rounds on another, a missing {@code resultType} meaning {@code complete}
 * (2026-07-28 basic/patterns/mrtr);</li>
 * <li>{@code http-standard-headers}: {@code Mcp-Method} on every POST, {@code Mcp-Name} on
 * {@code tools/call}, {@code resources/read}, {@code prompts/get} (transports/streamable-http
 * §Standard MCP Request Headers);</li>
 * <li>{@code http-custom-headers}: {@code x-mcp-header} parameters mirrored into
 * {@code Mcp-Param-*}, plain or Base64-encoded as §Value Encoding requires, none for a null or
 * undeclared parameter;</li>
 * <li>{@code http-invalid-tool-headers}: tools with invalid {@code x-mcp-header} declarations
 * are left out and never called, valid ones still are (server/tools §x-mcp-header);</li>
 * <li>{@code json-schema-ref-no-deref}: a network {@code $ref} in an input schema is never
 * fetched (SEP-2106);</li>
 * <li>{@code json-schema-2020-12-preservation}: the focal input schema survives parsing, the
 * SEP-2106 keywords ({@code allOf}/{@code anyOf}, {@code if}/{@code then}/{@code else},
 * {@code $anchor}) included, which 2026-07-28 requires.</li>
 * </ul>
 * How a scenario is run and judged is {@link ConformanceSuite}'s: the suite exits {@code 0}, no
 * check is {@code FAILURE} or {@code WARNING}, at least one is {@code SUCCESS}. The suite's exit
 * code includes the client's, except for {@code http-invalid-tool-headers}, which tolerates a
 * client that exits non-zero.
 *
 * @see LegacyConformanceTest
 */
class ModernConformanceTest {

	/** The modern revision; a scenario not defined at it is skipped by the suite, and fails here. */
	private static final String SPEC_VERSION = ConformanceClient.MODERN_REVISION;

	@ParameterizedTest(name = "{0}")
	@ValueSource(strings = { "tools_call", "request-metadata", "sep-2322-client-request-state",
			"http-standard-headers", "http-custom-headers", "http-invalid-tool-headers", "json-schema-ref-no-deref",
			"json-schema-2020-12-preservation" })
	void modernClientScenarioPasses(String scenario) throws Exception {
		ConformanceSuite.assertClientScenarioPasses(scenario, SPEC_VERSION);
	}

}
