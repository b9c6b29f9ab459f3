package dev.mcpx.conformance;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.McpInputHandler;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.GetPromptResult;
import dev.mcpx.client.model.Prompt;
import dev.mcpx.client.model.ReadResourceResult;
import dev.mcpx.client.model.Resource;
import dev.mcpx.client.model.Tool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The command-line client that the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance}, {@code conformance client --command ...}) runs
 * against its scenario servers.
 * <p>
 * The suite appends the scenario server's URL as the last argument and names the scenario in
 * the environment variable {@code MCP_CONFORMANCE_SCENARIO}, the spec revision it runs at in
 * {@code MCP_CONFORMANCE_PROTOCOL_VERSION} and, for some scenarios, a JSON context in
 * {@code MCP_CONFORMANCE_CONTEXT}. The revision picks the builder's
 * {@link ProtocolMode}: {@code 2026-07-28} is {@link ProtocolMode#MODERN}, a 2024 or 2025
 * revision {@link ProtocolMode#LEGACY}, anything else (or none) {@link ProtocolMode#AUTO}.
 * <p>
 * This client does what the scenario expects of a client through the public {@link McpClient}
 * API and builder options only (an {@link McpInputHandler} answers elicitations), prints each
 * step, always closes the client, and exits {@code 0} on success, {@code 1} on a failure (with
 * a message on standard error), {@code 2} for an unknown scenario or bad arguments.
 *
 * @see LegacyConformanceTest
 * @see ModernConformanceTest
 */
public final class ConformanceClient {

	/** Exit code of a scenario that ran and did what it should. */
	static final int OK = 0;

	/** Exit code of a scenario that failed, the client's exception included. */
	static final int FAILED = 1;

	/** Exit code of an unknown scenario or missing arguments. */
	static final int USAGE = 2;

	/** The modern revision: the only one {@link ProtocolMode#MODERN} speaks. */
	static final String MODERN_REVISION = "2026-07-28";

	/** Below the suite's default client timeout of 30 s, so a hung request is reported by us. */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

	private static final JsonMapper JSON = JsonMapper.shared();

	/** Every {@code auth/*} scenario runs {@link #authorized(Run)} with OAuth credentials. */
	static final String AUTH_PREFIX = "auth/";

	private static final Map<String, Scenario> SCENARIOS = scenarios();

	private ConformanceClient() {
	}

	private static Map<String, Scenario> scenarios() {
		Map<String, Scenario> scenarios = new LinkedHashMap<>();
		// both eras
		scenarios.put("tools_call", ConformanceClient::toolsCall);
		scenarios.put("json-schema-2020-12-preservation", ConformanceClient::jsonSchemaPreservation);
		// legacy era
		scenarios.put("initialize", ConformanceClient::initialize);
		scenarios.put("sse-retry", ConformanceClient::sseRetry);
		scenarios.put("elicitation-sep1034-client-defaults", ConformanceClient::elicitationDefaults);
		// modern era
		scenarios.put("request-metadata", ConformanceClient::requestMetadata);
		scenarios.put("sep-2322-client-request-state", ConformanceClient::requestState);
		scenarios.put("http-standard-headers", ConformanceClient::standardHeaders);
		scenarios.put("http-custom-headers", ConformanceClient::customHeaders);
		scenarios.put("http-invalid-tool-headers", ConformanceClient::invalidToolHeaders);
		scenarios.put("json-schema-ref-no-deref", ConformanceClient::refNoDeref);
		return Map.copyOf(scenarios);
	}

	public static void main(String[] args) {
		System.exit(run(args, System.getenv("MCP_CONFORMANCE_SCENARIO"),
				System.getenv("MCP_CONFORMANCE_PROTOCOL_VERSION"), System.getenv("MCP_CONFORMANCE_CONTEXT")));
	}

	/**
	 * Runs one scenario.
	 * @param args the command-line arguments; the last one is the server URL
	 * @param scenario the scenario name
	 * @param protocolVersion the spec revision the suite runs the scenario at, or {@code null}
	 * @param context the scenario's JSON context, or {@code null}
	 * @return the exit code
	 */
	static int run(String[] args, String scenario, String protocolVersion, String context) {
		if (args.length == 0) {
			System.err.println("usage: ConformanceClient <server-url> (scenario in MCP_CONFORMANCE_SCENARIO)");
			return USAGE;
		}
		if (scenario == null || scenario.isBlank()) {
			System.err.println("MCP_CONFORMANCE_SCENARIO is not set");
			return USAGE;
		}
		Scenario body = scenario.startsWith(AUTH_PREFIX) ? ConformanceClient::authorized : SCENARIOS.get(scenario);
		if (body == null) {
			System.err.println("unknown scenario '" + scenario + "'; supported: " + SCENARIOS.keySet());
			return USAGE;
		}
		JsonNode contextNode;
		try {
			contextNode = (context != null && !context.isBlank()) ? JSON.readTree(context) : JSON.createObjectNode();
		}
		catch (RuntimeException ex) {
			System.err.println("MCP_CONFORMANCE_CONTEXT is not JSON: " + ex.getMessage());
			return USAGE;
		}
		String url = args[args.length - 1];
		ProtocolMode mode = protocolMode(protocolVersion);
		System.out.println("scenario " + scenario + " (spec " + protocolVersion + ", protocol " + mode + ") against "
				+ url);
		ElicitationHandler inputs = new ElicitationHandler();
		McpClient client;
		try {
			McpClientBuilder builder = McpClient.builder("conformance", URI.create(url))
				.requestTimeout(REQUEST_TIMEOUT)
				.protocol(mode)
				.inputHandler(inputs);
			if (scenario.startsWith(AUTH_PREFIX)) {
				builder.credentials(ConformanceAuthorization.credentials(scenario, URI.create(url), contextNode));
			}
			client = builder.build();
		}
		catch (IllegalArgumentException ex) {
			System.err.println("cannot build a client for " + url + ": " + ex.getMessage());
			return USAGE;
		}
		try {
			body.run(new Run(client, inputs, contextNode));
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
	 * The era the suite's revision asks for.
	 * @param protocolVersion {@code MCP_CONFORMANCE_PROTOCOL_VERSION}, or {@code null}
	 * @return {@link ProtocolMode#MODERN} for 2026-07-28, {@link ProtocolMode#LEGACY} for a
	 * 2024 or 2025 revision, {@link ProtocolMode#AUTO} otherwise
	 */
	static ProtocolMode protocolMode(String protocolVersion) {
		if (protocolVersion == null || protocolVersion.isBlank()) {
			return ProtocolMode.AUTO;
		}
		if (protocolVersion.equals(MODERN_REVISION)) {
			return ProtocolMode.MODERN;
		}
		if (protocolVersion.startsWith("2024-") || protocolVersion.startsWith("2025-")) {
			return ProtocolMode.LEGACY;
		}
		return ProtocolMode.AUTO;
	}

	// --- both eras -------------------------------------------------------------------

	/**
	 * {@code tools_call}: list the tools, call {@code add_numbers} with two numbers. At
	 * 2026-07-28 the server is the suite's stateless mock, which also validates every message
	 * the client sends against the 2026 schema ({@code _meta} on every request, {@code params}
	 * even on {@code tools/list}).
	 */
	private static void toolsCall(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		check(tools.stream().anyMatch((tool) -> tool.name().equals("add_numbers")), "the server lists no add_numbers");
		System.out.println("calling add_numbers {a: 5, b: 3}");
		CallToolResult result = client.callTool("add_numbers", Map.of("a", 5, "b", 3));
		System.out.println("result (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), "add_numbers reported an error: " + result.text());
		check(result.text().contains("8"), "add_numbers answered '" + result.text() + "', expected the sum 8");
	}

	/**
	 * {@code json-schema-2020-12-preservation}: list the tools, send the input schema of
	 * {@code json_schema_2020_12_tool} back, as received, through {@code json_schema_echo}; the
	 * server checks that {@code $schema}, {@code $defs} and {@code additionalProperties} survived
	 * the client's parsing (2025-11-25 server/tools §Tool, {@code inputSchema}; SEP-1613), and at
	 * 2026-07-28 also {@code allOf}/{@code anyOf}, {@code if}/{@code then}/{@code else} and
	 * {@code $anchor} (SEP-2106).
	 */
	private static void jsonSchemaPreservation(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		Tool focal = tool(tools, "json_schema_2020_12_tool");
		check(focal.inputSchema() != null && focal.inputSchema().isObject(),
				"json_schema_2020_12_tool has no input schema object: " + focal.inputSchema());
		System.out.println("echoing the input schema of json_schema_2020_12_tool: " + focal.inputSchema());
		CallToolResult result = client.callTool("json_schema_echo", Map.of("schema", focal.inputSchema()));
		System.out.println("result (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), "json_schema_echo reported an error: " + result.text());
	}

	/**
	 * {@code auth/*}: the server refuses the first request with 401; the credentials discover
	 * the authorization server and obtain a token (the scenario decides how), and the request
	 * is sent again. Then a tool call, which some scenarios refuse with 403
	 * {@code insufficient_scope} (step-up) or with 401 after the authorization server moved.
	 * Scenarios where the right outcome is a refusal (a mismatched resource, issuer or
	 * {@code iss}) let the client fail.
	 */
	private static void authorized(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		check(tools.stream().anyMatch((tool) -> tool.name().equals("test-tool")), "the server lists no test-tool");
		System.out.println("calling test-tool");
		CallToolResult result = client.callTool("test-tool", Map.of());
		System.out.println("result (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), "test-tool reported an error: " + result.text());
	}

	// --- legacy era ------------------------------------------------------------------

	/**
	 * {@code initialize}: the handshake (2025-11-25 basic/lifecycle §Initialization), then a
	 * {@code ping} in the session. Not {@code tools/list}: this scenario's server declares no
	 * capabilities, and the client sends no request the server did not declare.
	 */
	private static void initialize(Run run) {
		McpClient client = run.client();
		System.out.println("pinging (runs initialize + notifications/initialized first)");
		client.ping();
		System.out.println("negotiated protocol version " + client.protocolVersion().orElse("?") + ", server "
				+ client.serverInfo().map((info) -> info.name() + " " + info.version()).orElse("?"));
		check(client.protocolVersion().isPresent(), "no protocol version negotiated");
	}

	/**
	 * {@code sse-retry}: the server answers {@code tools/call} with a priming event
	 * ({@code id}, {@code retry: 500}) and closes the stream without a response; the client
	 * must wait the retry time and resume with GET + {@code Last-Event-ID}, where the response
	 * arrives (2025-11-25 transports §Sending Messages to the Server, rule 6; §Resumability and
	 * Redelivery).
	 */
	private static void sseRetry(Run run) {
		McpClient client = run.client();
		listTools(client);
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
	 * {@code elicitation-sep1034-client-defaults}: {@code test_client_elicitation_defaults}
	 * sends {@code elicitation/create} on the call's response stream, with a schema whose five
	 * properties (string, integer, number, enum, boolean) all carry a {@code default}; the
	 * input handler accepts without filling any field, and the client applies the defaults of
	 * the omitted ones (2025-11-25 client/elicitation §Requested Schema; SEP-1034). The
	 * client declares elicitation in {@code initialize} because its handler answers it.
	 */
	private static void elicitationDefaults(Run run) {
		McpClient client = run.client();
		listTools(client);
		run.inputs().acceptWithoutContent();
		int answered = run.inputs().answered();
		CallToolResult result = client.callTool("test_client_elicitation_defaults", Map.of());
		System.out.println("result (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), "test_client_elicitation_defaults reported an error: " + result.text());
		check(run.inputs().answered() == answered + 1, "the server's elicitation never reached the input handler");
		check(result.text().contains("Elicitation completed"),
				"unexpected test_client_elicitation_defaults result '" + result.text() + "'");
	}

	// --- modern era (2026-07-28) -----------------------------------------------------

	/**
	 * {@code request-metadata}: the server refuses the first request, whatever it is, with
	 * HTTP 400 and {@code -32022} (supported {@code ["2026-07-28"]}); the client must retry with
	 * a supported version, and every request must carry {@code MCP-Protocol-Version} equal to
	 * {@code _meta["io.modelcontextprotocol/protocolVersion"]}, {@code clientCapabilities} (its
	 * entries objects) and {@code clientInfo} (2026-07-28 basic §_meta; basic/versioning
	 * §Protocol Version Negotiation; transports/streamable-http §Protocol Version Header).
	 * Two requests, so the retry is followed by an ordinary one.
	 */
	private static void requestMetadata(Run run) {
		McpClient client = run.client();
		listTools(client);
		System.out.println("protocol version " + client.protocolVersion().orElse("?") + ", era "
				+ client.era().map(Enum::name).orElse("?"));
		check(client.protocolVersion().orElse("").equals(MODERN_REVISION),
				"the client did not settle on " + MODERN_REVISION + ": " + client.protocolVersion());
		listTools(client);
	}

	/**
	 * {@code sep-2322-client-request-state}: four tools (2026-07-28 basic/patterns/mrtr §Client
	 * Requirements).
	 * <ul>
	 * <li>{@code test_mrtr_echo_state} answers {@code input_required} with an
	 * {@code elicitation/create} under {@code confirm} and a {@code requestState}: the retry
	 * carries {@code inputResponses.confirm} (accept, {@code {confirmed: true}}), the exact
	 * {@code requestState}, and a new JSON-RPC id;</li>
	 * <li>{@code test_mrtr_unrelated} is called between those two rounds (from the input
	 * handler) and must carry neither {@code inputResponses} nor {@code requestState};</li>
	 * <li>{@code test_mrtr_no_state} asks for input without {@code requestState}: the retry must
	 * not carry one;</li>
	 * <li>{@code test_mrtr_no_result_type} answers without {@code resultType}, which means
	 * {@code complete}: no retry.</li>
	 * </ul>
	 */
	private static void requestState(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		for (String name : List.of("test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated",
				"test_mrtr_no_result_type")) {
			tool(tools, name);
		}
		AtomicReference<CallToolResult> unrelated = new AtomicReference<>();
		run.inputs().beforeNextAnswer(() -> {
			System.out.println("between the rounds of test_mrtr_echo_state: calling test_mrtr_unrelated");
			unrelated.set(client.callTool("test_mrtr_unrelated", Map.of()));
			System.out.println("test_mrtr_unrelated: " + unrelated.get().text());
		});
		expectText(client, "test_mrtr_echo_state", "echo-state-ok");
		check(unrelated.get() != null, "the input handler was never asked, so test_mrtr_unrelated was not called");
		check(unrelated.get().text().contains("unrelated-ok"),
				"test_mrtr_unrelated answered '" + unrelated.get().text() + "', expected unrelated-ok");
		int answered = run.inputs().answered();
		expectText(client, "test_mrtr_no_state", "no-state-ok");
		check(run.inputs().answered() == answered + 1, "test_mrtr_no_state completed without asking for input");
		answered = run.inputs().answered();
		expectText(client, "test_mrtr_no_result_type", "no-result-type-test-ok");
		check(run.inputs().answered() == answered, "test_mrtr_no_result_type asked for input");
	}

	/**
	 * {@code http-standard-headers}: every POST carries {@code Mcp-Method} equal to the body's
	 * {@code method}; {@code tools/call} and {@code prompts/get} carry {@code Mcp-Name} equal to
	 * {@code params.name}, {@code resources/read} equal to {@code params.uri} (2026-07-28
	 * transports/streamable-http §Standard MCP Request Headers).
	 */
	private static void standardHeaders(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		check(!tools.isEmpty(), "the server lists no tools");
		for (Tool tool : tools) {
			CallToolResult result = client.callTool(tool.name(), Map.of());
			System.out.println("called " + tool.name() + " (isError " + result.isError() + "): " + result.text());
			check(!result.isError(), tool.name() + " reported an error: " + result.text());
		}
		List<Resource> resources = client.listResources();
		System.out.println("resources: " + resources.stream().map(Resource::uri).toList());
		check(!resources.isEmpty(), "the server lists no resources");
		for (Resource resource : resources) {
			ReadResourceResult read = client.readResource(resource.uri());
			System.out.println("read " + resource.uri() + ": " + read.contents().size() + " content(s)");
		}
		List<Prompt> prompts = client.listPrompts();
		System.out.println("prompts: " + prompts.stream().map(Prompt::name).toList());
		check(prompts.stream().anyMatch((prompt) -> prompt.name().equals("test_prompt")),
				"the server lists no test_prompt");
		GetPromptResult prompt = client.getPrompt("test_prompt", Map.of());
		System.out.println("got test_prompt: " + prompt.messages().size() + " message(s)");
	}

	/**
	 * {@code http-custom-headers}: list the tools (their {@code x-mcp-header} declarations), then
	 * make exactly the calls the context names ({@code toolCalls}: name and arguments, nulls
	 * included); each declared parameter with a value is mirrored into
	 * {@code Mcp-Param-<Name>}, plain or in the {@code =?base64?...?=} form, and a null or absent
	 * one is not (2026-07-28 transports/streamable-http §Custom Headers from Tool Parameters,
	 * §Value Encoding).
	 */
	private static void customHeaders(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		JsonNode calls = run.context().path("toolCalls");
		check(calls.isArray() && !calls.isEmpty(), "MCP_CONFORMANCE_CONTEXT names no toolCalls: " + run.context());
		for (JsonNode call : calls) {
			String name = call.path("name").asString("");
			tool(tools, name);
			Map<String, JsonNode> arguments = new LinkedHashMap<>();
			for (Map.Entry<String, JsonNode> argument : call.path("arguments").properties()) {
				arguments.put(argument.getKey(), argument.getValue());
			}
			System.out.println("calling " + name + " " + call.path("arguments"));
			CallToolResult result = client.callTool(name, arguments);
			System.out.println("result (isError " + result.isError() + "): " + result.text());
			check(!result.isError(), name + " reported an error: " + result.text());
		}
	}

	/**
	 * {@code http-invalid-tool-headers}: the server lists {@code valid_tool} and eleven tools
	 * whose {@code x-mcp-header} declarations are invalid (empty, on a non-primitive, duplicate,
	 * not a token); {@link McpClient#listTools()} leaves those out, and every tool it does list
	 * is called (2026-07-28 server/tools §x-mcp-header; transports/streamable-http §Schema
	 * Extension).
	 */
	private static void invalidToolHeaders(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		tool(tools, "valid_tool");
		for (Tool tool : tools) {
			Map<String, Object> arguments = sampleArguments(tool.inputSchema());
			System.out.println("calling " + tool.name() + " " + arguments);
			CallToolResult result = client.callTool(tool.name(), arguments);
			System.out.println("result (isError " + result.isError() + "): " + result.text());
			check(!result.isError(), tool.name() + " reported an error: " + result.text());
		}
	}

	/**
	 * {@code json-schema-ref-no-deref}: list the tools; the input schema of {@code lookup_user}
	 * has a {@code $ref} to a network URI, which the client must not fetch (SEP-2106 §Security
	 * Implications). The schema is kept as received, the reference included.
	 */
	private static void refNoDeref(Run run) {
		McpClient client = run.client();
		List<Tool> tools = listTools(client);
		Tool lookup = tool(tools, "lookup_user");
		JsonNode profile = lookup.inputSchema().path("properties").path("profile");
		System.out.println("lookup_user's profile schema: " + profile);
		check(profile.path("$ref").isString(), "the $ref of lookup_user's profile property was not kept as received: "
				+ profile);
	}

	// --- helpers ---------------------------------------------------------------------

	private static List<Tool> listTools(McpClient client) {
		List<Tool> tools = client.listTools();
		System.out.println("tools: " + tools.stream().map(Tool::name).toList());
		return tools;
	}

	private static Tool tool(List<Tool> tools, String name) {
		return tools.stream()
			.filter((tool) -> tool.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new ScenarioFailure("the server lists no " + name));
	}

	private static void expectText(McpClient client, String tool, String expected) {
		System.out.println("calling " + tool);
		CallToolResult result = client.callTool(tool, Map.of());
		System.out.println("result (isError " + result.isError() + "): " + result.text());
		check(!result.isError(), tool + " reported an error: " + result.text());
		check(result.text().contains(expected), tool + " answered '" + result.text() + "', expected " + expected);
	}

	/** A value for each required property of an input schema, by its type. */
	private static Map<String, Object> sampleArguments(JsonNode inputSchema) {
		Map<String, Object> arguments = new LinkedHashMap<>();
		if (inputSchema == null) {
			return arguments;
		}
		JsonNode properties = inputSchema.path("properties");
		for (JsonNode required : inputSchema.path("required")) {
			String name = required.asString("");
			arguments.put(name, sampleValue(properties.path(name)));
		}
		return arguments;
	}

	private static Object sampleValue(JsonNode schema) {
		JsonNode defaultValue = schema.get("default");
		if (defaultValue != null) {
			return defaultValue;
		}
		if (schema.path("enum").isArray() && !schema.path("enum").isEmpty()) {
			return schema.path("enum").get(0);
		}
		return switch (schema.path("type").asString("string")) {
			case "boolean" -> true;
			case "integer" -> 1;
			case "number" -> 1.5;
			case "object" -> Map.of();
			case "array" -> List.of();
			default -> "conformance";
		};
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

	/**
	 * What a scenario works with.
	 *
	 * @param client the client, built for the revision the suite runs at
	 * @param inputs the client's input handler
	 * @param context the scenario's context, an empty object when there is none
	 */
	private record Run(McpClient client, ElicitationHandler inputs, JsonNode context) {
	}

	@FunctionalInterface
	private interface Scenario {

		void run(Run run);

	}

	/**
	 * Answers {@code elicitation/create} by accepting, with content that fills every property of
	 * the requested schema: its default, else its first enum value, else a value of its type
	 * ({@code true} for a boolean). One action may be set to run before the next answer, that
	 * is between two rounds of a request.
	 */
	static final class ElicitationHandler implements McpInputHandler {

		private final AtomicReference<Runnable> beforeNextAnswer = new AtomicReference<>();

		private final AtomicInteger answered = new AtomicInteger();

		private volatile boolean withoutContent;

		@Override
		public Set<String> supportedMethods() {
			return Set.of("elicitation/create");
		}

		@Override
		public JsonNode answer(InputRequest request) {
			System.out.println("input request '" + request.key() + "' (" + request.method() + ") of "
					+ request.originalMethod() + ": " + request.params());
			Runnable action = this.beforeNextAnswer.getAndSet(null);
			if (action != null) {
				action.run();
			}
			ObjectNode answer = JSON.createObjectNode();
			answer.put("action", "accept");
			ObjectNode content = answer.putObject("content");
			if (this.withoutContent) {
				// the user accepted the form as proposed: the client fills in the defaults
				this.answered.incrementAndGet();
				System.out.println("answering '" + request.key() + "': " + answer);
				return answer;
			}
			JsonNode properties = (request.params() != null)
					? request.params().path("requestedSchema").path("properties") : JSON.missingNode();
			for (Map.Entry<String, JsonNode> property : properties.properties()) {
				content.set(property.getKey(), JSON.valueToTree(sampleValue(property.getValue())));
			}
			this.answered.incrementAndGet();
			System.out.println("answering '" + request.key() + "': " + answer);
			return answer;
		}

		void acceptWithoutContent() {
			this.withoutContent = true;
		}

		void beforeNextAnswer(Runnable action) {
			this.beforeNextAnswer.set(action);
		}

		int answered() {
			return this.answered.get();
		}

	}

	private static final class ScenarioFailure extends RuntimeException {

		ScenarioFailure(String message) {
			super(message);
		}

	}

}
