package dev.mcpx.conformance;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Tool;

/**
 * The command-line client that the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance}, {@code conformance client --command ...}) runs
 * against its scenario servers.
 * <p>
 * The suite appends the scenario server's URL as the last argument and names the scenario in
 * the environment variable {@code MCP_CONFORMANCE_SCENARIO} (the spec revision it runs at in
 * {@code MCP_CONFORMANCE_PROTOCOL_VERSION}). This client does what the scenario expects of a
 * client through the public {@link McpClient} API only, prints each step, always closes the
 * client, and exits {@code 0} on success, {@code 1} on a failure (with a message on standard
 * error), {@code 2} for an unknown scenario or bad arguments.
 *
 * @see LegacyConformanceTest
 */
public final class ConformanceClient {

	/** Exit code of a scenario that ran and did what it should. */
	static final int OK = 0;

	/** Exit code of a scenario that failed, the client's exception included. */
	static final int FAILED = 1;

	/** Exit code of an unknown scenario or missing arguments. */
	static final int USAGE = 2;

	/** Below the suite's default client timeout of 30 s, so a hung request is reported by us. */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

	private ConformanceClient() {
	}

	public static void main(String[] args) {
		System.exit(run(args, System.getenv("MCP_CONFORMANCE_SCENARIO"),
				System.getenv("MCP_CONFORMANCE_PROTOCOL_VERSION")));
	}

	/**
	 * Runs one scenario.
	 * @param args the command-line arguments; the last one is the server URL
	 * @param scenario the scenario name
	 * @param protocolVersion the spec revision the suite runs the scenario at, or {@code null}
	 * @return the exit code
	 */
	static int run(String[] args, String scenario, String protocolVersion) {
		if (args.length == 0) {
			System.err.println("usage: ConformanceClient <server-url> (scenario in MCP_CONFORMANCE_SCENARIO)");
			return USAGE;
		}
		if (scenario == null || scenario.isBlank()) {
			System.err.println("MCP_CONFORMANCE_SCENARIO is not set");
			return USAGE;
		}
		Scenario body = switch (scenario) {
			case "initialize" -> ConformanceClient::initialize;
			case "tools_call" -> ConformanceClient::toolsCall;
			case "sse-retry" -> ConformanceClient::sseRetry;
			case "json-schema-2020-12-preservation" -> ConformanceClient::jsonSchemaPreservation;
			default -> null;
		};
		if (body == null) {
			System.err.println("unknown scenario '" + scenario + "'; supported: initialize, tools_call, sse-retry, "
					+ "json-schema-2020-12-preservation");
			return USAGE;
		}
		String url = args[args.length - 1];
		System.out.println("scenario " + scenario + " (spec " + protocolVersion + ") against " + url);
		McpClient client;
		try {
			client = McpClient.builder("conformance", URI.create(url)).requestTimeout(REQUEST_TIMEOUT).build();
		}
		catch (IllegalArgumentException ex) {
			System.err.println("cannot build a client for " + url + ": " + ex.getMessage());
			return USAGE;
		}
		try {
			body.run(client);
			System.out.println("scenario " + scenario + ": done");
			return OK;
		}
		catch (ScenarioFailure ex) {
			System.err.println("scenario " + scenario + " FAILED: " + ex.getMessage());
			return FAILED;
		}
		catch (RuntimeException ex) {
			System.err.println("scenario " + scenario + " FAILED with " + ex.getClass().getSimpleName() + ": "
					+ ex.getMessage() + "\n" + stackTrace(ex));
			return FAILED;
		}
		finally {
			System.out.println("closing the client");
			client.close();
		}
	}

	/**
	 * {@code initialize}: the handshake (2025-11-25 basic/lifecycle §Initialization), then a
	 * {@code ping} in the session. Not {@code tools/list}: this scenario's server declares no
	 * capabilities, and the client sends no request the server did not declare.
	 */
	private static void initialize(McpClient client) {
		System.out.println("pinging (runs initialize + notifications/initialized first)");
		client.ping();
		System.out.println("negotiated protocol version " + client.protocolVersion().orElse("?") + ", server "
				+ client.serverInfo().map((info) -> info.name() + " " + info.version()).orElse("?"));
		check(client.protocolVersion().isPresent(), "no protocol version negotiated");
	}

	/** {@code tools_call}: list the tools, call {@code add_numbers} with two numbers. */
	private static void toolsCall(McpClient client) {
		List<Tool> tools = client.listTools();
		System.out.println("tools: " + tools.stream().map(Tool::name).toList());
		check(tools.stream().anyMatch((tool) -> tool.name().equals("add_numbers")), "the server lists no add_numbers");
		System.out.println("calling add_numbers {a: 5, b: 3}");
		CallToolResult result = client.callTool("add_numbers", Map.of("a", 5, "b", 3));
		System.out.println("result (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), "add_numbers reported an error: " + result.text());
		check(result.text().contains("8"), "add_numbers answered '" + result.text() + "', expected the sum 8");
	}

	/**
	 * {@code sse-retry}: the server answers {@code tools/call} with a priming event
	 * ({@code id}, {@code retry: 500}) and closes the stream without a response; the client
	 * must wait the retry time and resume with GET + {@code Last-Event-ID}, where the response
	 * arrives (2025-11-25 transports §Sending Messages to the Server, rule 6; §Resumability and
	 * Redelivery).
	 */
	private static void sseRetry(McpClient client) {
		List<Tool> tools = client.listTools();
		System.out.println("tools: " + tools.stream().map(Tool::name).toList());
		System.out.println("calling test_reconnection (its stream closes early; the answer comes on a resumed GET)");
		long started = System.nanoTime();
		CallToolResult result = client.callTool("test_reconnection", Map.of());
		System.out.println("result after " + Duration.ofNanos(System.nanoTime() - started).toMillis()
				+ " ms (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), "test_reconnection reported an error: " + result.text());
		check(result.text().contains("Reconnection test completed successfully"),
				"unexpected test_reconnection result '" + result.text() + "'");
	}

	/**
	 * {@code json-schema-2020-12-preservation}: list the tools, send the input schema of
	 * {@code json_schema_2020_12_tool} back, as received, through {@code json_schema_echo}; the
	 * server checks that {@code $schema}, {@code $defs} and {@code additionalProperties} survived
	 * the client's parsing (2025-11-25 server/tools §Tool, {@code inputSchema}; SEP-1613).
	 */
	private static void jsonSchemaPreservation(McpClient client) {
		List<Tool> tools = client.listTools();
		System.out.println("tools: " + tools.stream().map(Tool::name).toList());
		Tool focal = tools.stream()
			.filter((tool) -> tool.name().equals("json_schema_2020_12_tool"))
			.findFirst()
			.orElseThrow(() -> new ScenarioFailure("the server lists no json_schema_2020_12_tool"));
		check(focal.inputSchema() != null && focal.inputSchema().isObject(),
				"json_schema_2020_12_tool has no input schema object: " + focal.inputSchema());
		System.out.println("echoing the input schema of json_schema_2020_12_tool: " + focal.inputSchema());
		CallToolResult result = client.callTool("json_schema_echo", Map.of("schema", focal.inputSchema()));
		System.out.println("result (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), "json_schema_echo reported an error: " + result.text());
	}

	private static void check(boolean condition, String message) {
		if (!condition) {
			throw new ScenarioFailure(message);
		}
	}

	private static String stackTrace(Throwable ex) {
		StringWriter out = new StringWriter();
		ex.printStackTrace(new PrintWriter(out));
		return out.toString();
	}

	@FunctionalInterface
	private interface Scenario {

		void run(McpClient client);

	}

	private static final class ScenarioFailure extends RuntimeException {

		ScenarioFailure(String message) {
			super(message);
		}

	}

}
