package dev.mcpx.testsupport;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JsonSchema;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import tools.jackson.databind.json.JsonMapper;

import dev.mcpx.client.StdioCommand;

/**
 * The official MCP Java SDK server on its stdio transport ({@code StdioServerTransportProvider}),
 * run as a child JVM on the test classpath: tools {@code echo} (read-only), {@code add_item}
 * (destructive) and {@code crash} (halts the JVM mid-call with code 3). Each start and
 * execution is appended to the file named by {@code MCPX_STDIO_LOG}, in the format of the
 * Node peers.
 */
public final class JavaSdkStdioServer {

	private JavaSdkStdioServer() {
	}

	/**
	 * The command that starts this server in a child JVM.
	 * @param log where it appends its starts and executions
	 * @return the command
	 */
	public static StdioCommand command(Path log) {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return new StdioCommand(java, List.of("-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp",
				System.getProperty("java.class.path"), JavaSdkStdioServer.class.getName()),
				Map.of("MCPX_STDIO_LOG", log.toString()), null, true);
	}

	public static void main(String[] args) throws InterruptedException {
		// stdout is the protocol channel: everything else, logging included, goes to stderr.
		PrintStream protocol = System.out;
		System.setOut(System.err);
		record("{\"type\":\"start\"}");
		StdioServerTransportProvider transport = new StdioServerTransportProvider(
				new JacksonMcpJsonMapper(JsonMapper.builder().build()), System.in, protocol);
		List<SyncToolSpecification> tools = new ArrayList<>();
		tools.add(tool("echo", ToolAnnotations.builder().readOnlyHint(true).build(), (arg) -> arg));
		tools.add(tool("add_item", ToolAnnotations.builder().readOnlyHint(false).destructiveHint(true).build(),
				(arg) -> "added " + arg));
		tools.add(tool("crash", ToolAnnotations.builder().readOnlyHint(false).destructiveHint(true).build(), (arg) -> {
			Runtime.getRuntime().halt(3);
			return "unreachable";
		}));
		McpServer.sync(transport)
			.serverInfo("mcpx-java-sdk-stdio-peer", "1.0.0")
			.capabilities(ServerCapabilities.builder().tools(true).build())
			.tools(tools)
			.build();
		// The transport reads stdin on its own threads; this JVM ends when the client stops it.
		new CountDownLatch(1).await();
	}

	private static SyncToolSpecification tool(String name, ToolAnnotations annotations,
			java.util.function.UnaryOperator<String> body) {
		Tool tool = Tool.builder()
			.name(name)
			.description(name)
			.inputSchema(new JsonSchema("object", Map.of("text", Map.of("type", "string")), List.of("text"), null, null,
					null))
			.annotations(annotations)
			.build();
		return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
			String text = String.valueOf(request.arguments().get("text"));
			record("{\"type\":\"execution\",\"tool\":\"" + name + "\",\"args\":{\"key\":\"" + text + "\"}}");
			return CallToolResult.builder().addTextContent(body.apply(text)).isError(false).build();
		}).build();
	}

	private static synchronized void record(String entry) {
		String log = System.getenv("MCPX_STDIO_LOG");
		if (log == null) {
			return;
		}
		String line = entry.substring(0, entry.length() - 1) + ",\"pid\":" + ProcessHandle.current().pid() + "}\n";
		try {
			Files.writeString(Path.of(log), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
					StandardOpenOption.APPEND);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
