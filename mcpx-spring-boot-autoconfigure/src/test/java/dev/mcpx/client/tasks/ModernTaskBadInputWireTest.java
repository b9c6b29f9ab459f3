package dev.mcpx.client.tasks;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Bad answers of a 2026-07-28 server under the tasks extension (SEP-2663 §Tasks, §Task Polling)
 * get a typed outcome and nothing hangs: a task without an id, a status none of the five, a
 * terminal task that changes, a completed task without its result, a {@code pollIntervalMs} of 0
 * (floored, no spin) or a day (polled within the call's bound), a task that never ends (the
 * call's timeout, then {@code tasks/cancel}), and a task answering a request that cannot be one.
 * Also what the client sends: the extension in the capabilities of every request, and the task
 * id in {@code Mcp-Name} of every task request. Counted on the scripted upstream.
 */
class ModernTaskBadInputWireTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private static final JsonMapper json = JsonMapper.builder().build();

	private McpClient client;

	@BeforeEach
	void stub() {
		wire.stubFor(method("server/discover").willReturn(okJson(result("{\"resultType\":\"complete\","
				+ "\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":{\"tools\":{},\"prompts\":{},\"extensions\":"
				+ "{\"io.modelcontextprotocol/tasks\":{}}},\"ttlMs\":0,\"cacheScope\":\"private\"}"))));
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[{\"name\":\"job\",\"inputSchema\":"
				+ "{\"type\":\"object\"}}]}"))));
		wire.stubFor(method("tasks/cancel").willReturn(okJson(result("{\"resultType\":\"complete\"}"))));
		this.client = McpClient.builder("wire", wire.mcpUri())
			.protocol(ProtocolMode.MODERN)
			.requestTimeout(Duration.ofSeconds(2))
			.build();
	}

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void everyRequestDeclaresTheExtensionAndTaskRequestsNameTheTask() {
		wire.stubFor(method("tools/call").willReturn(okJson(result(created("t1", "working", 100)))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(completed("t1")))));

		assertThat(this.client.callTool("job", Map.of()).text()).isEqualTo("done");

		for (String method : new String[] { "tools/list", "tools/call", "tasks/get" }) {
			assertThat(wire.posts(method)).isNotEmpty().allSatisfy((request) -> assertThat(json
				.readTree(request.getBodyAsString())
				.at("/params/_meta/io.modelcontextprotocol~1clientCapabilities/extensions/io.modelcontextprotocol~1tasks")
				.isObject()).as(method).isTrue());
		}
		assertThat(wire.posts("tasks/get")).allSatisfy((request) -> {
			assertThat(request.getHeader("Mcp-Name")).isEqualTo("t1");
			assertThat(request.getHeader("Mcp-Method")).isEqualTo("tasks/get");
		});
		assertThat(wire.posts("tasks/result")).isEmpty();
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aFailedTasksErrorIsTheCallsErrorWithoutTheClientsSecrets() {
		McpClient withToken = McpClient.builder("wire", wire.mcpUri())
			.protocol(ProtocolMode.MODERN)
			.header("Authorization", "Bearer tok-0123456789abcdef")
			.requestTimeout(Duration.ofSeconds(2))
			.build();
		wire.stubFor(method("tools/call").willReturn(okJson(result(created("t1", "working", 100)))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "failed", 100,
				",\"error\":{\"code\":-32603,\"message\":\"rejected Bearer tok-0123456789abcdef\"}")))));
		try {
			assertThatExceptionOfType(McpJsonRpcException.class).isThrownBy(() -> withToken.callTool("job", Map.of()))
				.satisfies((ex) -> {
					assertThat(ex.code()).isEqualTo(-32603);
					assertThat(ex.getMessage()).contains("tools/call failed with JSON-RPC error -32603: rejected")
						.doesNotContain("tok-0123456789abcdef");
				});
		}
		finally {
			withToken.close();
		}
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aTaskWithoutAnIdIsAProtocolErrorAndNothingIsPolled() {
		wire.stubFor(method("tools/call").willReturn(okJson(result("{\"resultType\":\"task\",\"status\":\"working\"}"))));

		assertThatExceptionOfType(McpProtocolException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("carries no taskId");
		assertThat(wire.posts("tasks/get")).isEmpty();
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void anUnknownStatusIsAProtocolErrorNamingIt() {
		wire.stubFor(method("tools/call").willReturn(okJson(result(created("t1", "working", 100)))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "exploded", 100, "")))));

		assertThatExceptionOfType(McpProtocolException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("\"exploded\"");
		assertThat(wire.posts("tasks/get")).hasSize(1);
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aCompletedTaskWithoutItsResultIsAProtocolError() {
		wire.stubFor(method("tools/call").willReturn(okJson(result(created("t1", "working", 100)))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "completed", 100, "")))));

		assertThatExceptionOfType(McpProtocolException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("no result object");
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aTerminalTaskThatChangesIsAProtocolError() {
		// a CreateTaskResult carries no result, so a completed one is polled; the poll says working
		wire.stubFor(method("tools/call").willReturn(okJson(result(created("t1", "completed", 100)))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "working", 100, "")))));

		assertThatExceptionOfType(McpProtocolException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("moved from terminal status completed to working");
		assertThat(wire.posts("tasks/get")).hasSize(1);
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aPollIntervalOfZeroIsNotASpinAndATaskThatNeverEndsTimesOut() {
		wire.stubFor(method("tools/call").willReturn(okJson(result(created("t1", "working", 0)))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "working", 0, "")))));

		assertThatExceptionOfType(McpTimeoutException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("task t1")
			.withMessageContaining("cancelled");
		// 2 s of silence at the 100 ms floor: about 20 polls, never thousands
		assertThat(wire.posts("tasks/get").size()).isBetween(2, 25);
		assertThat(wire.posts("tasks/cancel")).hasSize(1)
			.allSatisfy((request) -> assertThat(request.getHeader("Mcp-Name")).isEqualTo("t1"));
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aPollIntervalOfADayIsPolledWithinTheCallsBound() {
		wire.stubFor(method("tools/call").willReturn(okJson(result(created("t1", "working", 86_400_000)))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(completed("t1")))));

		assertThat(this.client.callTool("job", Map.of()).text()).isEqualTo("done");
		assertThat(wire.posts("tasks/get")).hasSize(1);
	}

	@Test
	void aTaskAnsweringARequestThatCannotBeOneIsAProtocolError() {
		wire.stubFor(method("prompts/list").willReturn(okJson(result("{\"prompts\":[{\"name\":\"p\"}]}"))));
		wire.stubFor(method("prompts/get").willReturn(okJson(result(created("t1", "working", 100)))));

		assertThatExceptionOfType(McpProtocolException.class)
			.isThrownBy(() -> this.client.getPrompt("p", Map.of()))
			.withMessageContaining("only tools/call may be");
		assertThat(wire.posts("tasks/get")).isEmpty();
	}

	private static String created(String id, String status, long pollIntervalMs) {
		return task(id, status, pollIntervalMs, "").replace("\"resultType\":\"complete\"", "\"resultType\":\"task\"");
	}

	private static String completed(String id) {
		return task(id, "completed", 100, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}");
	}

	private static String task(String id, String status, long pollIntervalMs, String extra) {
		return "{\"resultType\":\"complete\",\"taskId\":\"" + id + "\",\"status\":\"" + status
				+ "\",\"createdAt\":\"2026-01-01T00:00:00Z\",\"lastUpdatedAt\":\"2026-01-01T00:00:00Z\",\"ttlMs\":60000,"
				+ "\"pollIntervalMs\":" + pollIntervalMs + extra + "}";
	}

}
