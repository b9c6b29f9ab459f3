package dev.mcpx.client.tasks;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Bad task answers of a 2025-11-25 server (basic/utilities/tasks §Data Types) get a typed outcome
 * and nothing hangs: a {@code CreateTaskResult} without a task id, a status none of the five, a
 * {@code pollInterval} of 0 (not a spin) or of a day (polled within the call's bound), and a task
 * that never ends (the call's timeout). Counted on the scripted upstream.
 */
class TaskBadInputWireTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private McpClient client;

	@BeforeEach
	void stub() {
		wire.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":"
				+ "{\"tools\":{},\"tasks\":{\"requests\":{\"tools\":{\"call\":{}}}}},\"serverInfo\":{\"name\":\"w\",\"version\":\"1\"}}"))
			.withHeader("Mcp-Session-Id", "sess-bad-input-0001")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("notifications/cancelled").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("tasks/cancel").willReturn(okJson(result(task("t1", "cancelled", 1000)))));
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[{\"name\":\"job\",\"inputSchema\":"
				+ "{\"type\":\"object\"},\"execution\":{\"taskSupport\":\"required\"}}]}"))));
		this.client = McpClient.builder("wire", wire.mcpUri())
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(2))
			.build();
	}

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void aCreateTaskResultWithoutAnIdIsAProtocolErrorAndNothingIsPolled() {
		wire.stubFor(method("tools/call").willReturn(okJson(result("{\"task\":{\"status\":\"working\"}}"))));

		assertThatExceptionOfType(McpProtocolException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("carries no taskId");
		assertThat(wire.posts("tasks/get")).isEmpty();
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void anUnknownStatusIsAProtocolErrorNamingIt() {
		wire.stubFor(method("tools/call").willReturn(okJson(result("{\"task\":" + task("t1", "working", 0) + "}"))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "exploded", 0)))));

		assertThatExceptionOfType(McpProtocolException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("\"exploded\"");
		assertThat(wire.posts("tasks/get")).hasSize(1);
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aPollIntervalOfZeroIsNotASpinAndATaskThatNeverEndsTimesOut() {
		wire.stubFor(method("tools/call").willReturn(okJson(result("{\"task\":" + task("t1", "working", 0) + "}"))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "working", 0)))));

		assertThatExceptionOfType(McpTimeoutException.class).isThrownBy(() -> this.client.callTool("job", Map.of()))
			.withMessageContaining("task t1")
			.withMessageContaining("cancelled");
		// 2 s of silence at the 100 ms floor: about 20 polls, never thousands
		assertThat(wire.posts("tasks/get").size()).isBetween(2, 25);
		assertThat(wire.posts("tasks/cancel")).hasSize(1);
		assertThat(wire.posts("tools/call")).hasSize(1);
	}

	@Test
	void aPollIntervalOfADayIsPolledWithinTheCallsBound() {
		wire.stubFor(method("tools/call").willReturn(okJson(result("{\"task\":" + task("t1", "working", 86_400_000) + "}"))));
		wire.stubFor(method("tasks/get").willReturn(okJson(result(task("t1", "completed", 86_400_000)))));
		wire.stubFor(method("tasks/result").willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]}"))));

		assertThat(this.client.callTool("job", Map.of()).text()).isEqualTo("done");
		assertThat(wire.posts("tasks/get")).hasSize(1);
		assertThat(wire.posts("tasks/result")).hasSize(1);
	}

	private static String task(String id, String status, long pollInterval) {
		return "{\"taskId\":\"" + id + "\",\"status\":\"" + status + "\",\"createdAt\":\"2026-01-01T00:00:00Z\","
				+ "\"lastUpdatedAt\":\"2026-01-01T00:00:00Z\",\"ttl\":60000,\"pollInterval\":" + pollInterval + "}";
	}

}
