package dev.mcpx.client.protocol;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.JsonSchema;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpCallOptions;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.testsupport.JavaSdkServer;
import dev.mcpx.testsupport.ScriptedInputHandler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client protocol of the legacy era against the official MCP Java SDK server: a tool that
 * elicits through {@code McpSyncServerExchange.createElicitation} (2025-11-25
 * client/elicitation) and one that reports progress through {@code progressNotification} for
 * longer than the call's timeout (basic/utilities/progress). The server records the answer it
 * received and counts the executions.
 */
class JavaSdkProtocolInteropTest {

	private final List<ElicitResult> elicited = new CopyOnWriteArrayList<>();

	private JavaSdkServer server;

	@BeforeEach
	void start() {
		this.server = JavaSdkServer.start((spec) -> spec.tool(askName()).tool(reportProgress()));
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void anElicitationOfTheJavaSdkServerIsAnsweredWithTheFormsDefaults() {
		ScriptedInputHandler handler = ScriptedInputHandler.acceptingForms("{\"name\":\"Grace\"}");
		try (McpClient client = client().inputHandler(handler).build()) {
			assertThat(client.callTool("ask_name", Map.of()).isError()).isFalse();
		}
		assertThat(this.elicited).singleElement().satisfies((result) -> {
			assertThat(result.action()).isEqualTo(ElicitResult.Action.ACCEPT);
			assertThat(result.content()).containsEntry("name", "Grace").containsEntry("age", 36);
		});
	}

	@Test
	void aToolOfTheJavaSdkServerThatReportsProgressForLongerThanItsTimeoutCompletes() {
		List<McpProgress> progress = new CopyOnWriteArrayList<>();
		try (McpClient client = client().build()) {
			dev.mcpx.client.model.CallToolResult result = client.callTool("report_progress", Map.of(),
					McpCallOptions.builder().timeout(Duration.ofMillis(1000)).onProgress(progress::add).build());
			assertThat(result.text()).isEqualTo("done after 5 steps");
		}
		assertThat(progress).extracting(McpProgress::progress).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
		assertThat(this.server.executions("report_progress")).isEqualTo(1);
	}

	private McpClientBuilder client() {
		return McpClient.builder("java-sdk", URI.create(this.server.url()))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(15));
	}

	private SyncToolSpecification askName() {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("name", Map.of("type", "string", "default", "Ada"));
		properties.put("age", Map.of("type", "integer", "default", 36));
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("ask_name")
				.inputSchema(new JsonSchema("object", Map.of(), List.of(), null, null, null))
				.build())
			.callHandler((exchange, request) -> {
				ElicitResult result = exchange.createElicitation(McpSchema.ElicitRequest.builder()
					.message("Who are you?")
					.requestedSchema(Map.of("type", "object", "properties", properties))
					.build());
				this.elicited.add(result);
				return CallToolResult.builder().addTextContent(String.valueOf(result.content())).isError(false).build();
			})
			.build();
	}

	private static SyncToolSpecification reportProgress() {
		return SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder()
				.name("report_progress")
				.inputSchema(new JsonSchema("object", Map.of(), List.of(), null, null, null))
				.build())
			.callHandler((exchange, request) -> {
				Object token = (request.meta() != null) ? request.meta().get("progressToken") : null;
				for (int step = 1; step <= 5; step++) {
					try {
						Thread.sleep(400);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
						return CallToolResult.builder().addTextContent("interrupted").isError(true).build();
					}
					if (token != null) {
						exchange.progressNotification(new ProgressNotification(token, step, 5.0, "step " + step));
					}
				}
				return CallToolResult.builder().addTextContent("done after 5 steps").isError(false).build();
			})
			.build();
	}

}
