package dev.mcpx.autoconfigure.ai;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ImageContent;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

import dev.mcpx.testsupport.JavaSdkServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the model reads of a tool's definition and result, from a real server (the official
 * Java SDK server): schemas verbatim, structured content as JSON, binary content described,
 * a tool error as text.
 */
class McpToolCallbackResultTest {

	private static final Map<String, Object> WEATHER_INPUT = Map.of("type", "object", "properties",
			Map.of("city", Map.of("$ref", "#/$defs/city")), "$defs", Map.of("city", Map.of("type", "string")),
			"additionalProperties", false);

	private static JavaSdkServer server;

	@BeforeAll
	static void startServer() {
		server = JavaSdkServer.start((spec) -> spec.clear()
			.tool(answering(tool("weather", WEATHER_INPUT, Map.of("type", "object", "properties",
					Map.of("temp", Map.of("type", "number")))), CallToolResult.builder()
				.addTextContent("21 degrees")
				.structuredContent(Map.of("temp", 21))
				.build()))
			.tool(answering(tool("picture", Map.of("type", "object"), null), CallToolResult.builder()
				.content(List.of(new TextContent("here"), new ImageContent(null, "AAECAwQF", "image/png")))
				.build()))
			.tool(answering(tool("failing", Map.of("type", "object"), null),
					CallToolResult.builder().addTextContent("no such city").isError(true).build())));
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@Test
	void theInputSchemaReachesTheModelVerbatim() {
		run((provider) -> {
			JsonNode schema = JsonMapper.shared()
				.readTree(callback(provider, "weather").getToolDefinition().inputSchema());
			assertThat(schema).isEqualTo(JsonMapper.shared().valueToTree(WEATHER_INPUT));
		});
	}

	@Test
	void structuredContentIsReturnedAsJsonWhenTheToolHasAnOutputSchema() {
		run((provider) -> assertThat(JsonMapper.shared().readTree(callback(provider, "weather").call("{\"city\":\"x\"}")))
			.isEqualTo(JsonMapper.shared().readTree("{\"temp\":21}")));
	}

	@Test
	void imagesAreDescribedByTypeMimeTypeAndSizeNotPasted() {
		run((provider) -> assertThat(callback(provider, "picture").call("{}"))
			.isEqualTo("here\n[image: image/png, 6 bytes]"));
	}

	@Test
	void aToolErrorIsReturnedAsTextForTheModel() {
		run((provider) -> {
			assertThat(callback(provider, "failing").call("{}")).isEqualTo("no such city");
			assertThat(server.executions("failing")).isEqualTo(1);
		});
	}

	private static void run(Consumer<ToolCallbackProvider> test) {
		ChatApp.contextRunner("sdk", server.url())
			.run((context) -> test.accept(context.getBean(ToolCallbackProvider.class)));
	}

	private static ToolCallback callback(ToolCallbackProvider provider, String name) {
		return Arrays.stream(provider.getToolCallbacks())
			.filter((c) -> c.getToolDefinition().name().equals(name))
			.findFirst()
			.orElseThrow();
	}

	private static SyncToolSpecification answering(Tool tool, CallToolResult result) {
		return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> result).build();
	}

	private static Tool tool(String name, Map<String, Object> input, Map<String, Object> output) {
		Tool.Builder tool = Tool.builder().name(name).description(name).inputSchema(input);
		if (output != null) {
			tool.outputSchema(output);
		}
		return tool.build();
	}

}
