package dev.mcpx.client.interop;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Content;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.Tool;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Interoperability with an independently written server: the official MCP Java SDK 2.1.0
 * server (Streamable HTTP servlet transport, sessions on) in this JVM.
 */
class JavaSdkServerInteropTest {

	private static JavaSdkServer server;

	@BeforeAll
	static void startServer() {
		server = JavaSdkServer.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	private static McpClient client() {
		return McpClient.builder("java-sdk", URI.create(server.url())).build();
	}

	@Test
	void initializeNegotiatesALegacyRevisionAndReadsServerInfo() {
		try (McpClient client = client()) {
			client.ping();

			assertThat(client.era()).contains(ProtocolEra.LEGACY);
			assertThat(client.protocolVersion()).hasValueSatisfying(
					(version) -> assertThat(version).isIn("2025-11-25", "2025-06-18", "2025-03-26"));
			assertThat(client.serverInfo()).hasValueSatisfying(
					(info) -> assertThat(info.name()).isEqualTo("java-sdk-test-server"));
		}
	}

	@Test
	void everyListKindIsRead() {
		try (McpClient client = client()) {
			List<Tool> tools = client.listTools();

			assertThat(tools).extracting(Tool::name).contains("echo", "set_value", "delete_item");
			Tool echo = tools.stream().filter((t) -> t.name().equals("echo")).findFirst().orElseThrow();
			assertThat(echo.annotations().isReadOnly()).isTrue();
			Tool setValue = tools.stream().filter((t) -> t.name().equals("set_value")).findFirst().orElseThrow();
			assertThat(setValue.annotations().isIdempotent()).isTrue();
			Tool delete = tools.stream().filter((t) -> t.name().equals("delete_item")).findFirst().orElseThrow();
			assertThat(delete.annotations().destructiveHint()).isTrue();
			assertThat(client.listPrompts()).extracting("name").contains("greeting");
			assertThat(client.listResources()).extracting("uri").contains("demo://readme");
			assertThat(client.listResourceTemplates()).extracting("uriTemplate").contains("demo://items/{id}");
		}
	}

	@Test
	void toolsPromptsAndResourcesAnswer() {
		try (McpClient client = client()) {
			int before = server.executions("echo");

			CallToolResult result = client.callTool("echo", Map.of("text", "hello"));

			assertThat(result.isError()).isFalse();
			assertThat(result.text()).isEqualTo("hello");
			assertThat(server.executions("echo")).isEqualTo(before + 1);
			assertThat(client.getPrompt("greeting", Map.of("name", "Ada")).messages())
				.singleElement()
				.satisfies((m) -> assertThat(((Content.Text) m.content()).text()).contains("Ada"));
			assertThat(client.readResource("demo://readme").contents().get(0).text()).contains("Java SDK");
			assertThat(client.readResource("demo://items/42").contents().get(0).text()).isEqualTo("Item 42");
		}
	}

	@Test
	void anUnknownToolIsAJsonRpcError() {
		try (McpClient client = client()) {
			assertThatThrownBy(() -> client.callTool("no_such_tool", Map.of()))
				.isInstanceOfSatisfying(McpJsonRpcException.class, (ex) -> assertThat(ex.code()).isEqualTo(-32602));
		}
	}

	@Test
	void closeDeletesTheSession() {
		McpClient client = client();
		client.ping();
		int deletes = server.deleteCount();

		client.close();

		assertThat(server.deleteCount()).isEqualTo(deletes + 1);
	}

	@Test
	void manyThreadsShareOneSession() throws Exception {
		try (McpClient client = client()) {
			int initializes = server.initializeCount();
			ExecutorService pool = Executors.newFixedThreadPool(16);
			try {
				List<Future<CallToolResult>> calls = new ArrayList<>();
				for (int i = 0; i < 64; i++) {
					String text = "t" + i;
					calls.add(pool.submit(() -> client.callTool("echo", Map.of("text", text))));
				}
				for (int i = 0; i < calls.size(); i++) {
					assertThat(calls.get(i).get().text()).isEqualTo("t" + i);
				}
			}
			finally {
				pool.shutdownNow();
			}
			assertThat(server.initializeCount()).isEqualTo(initializes + 1);
		}
	}

}
