package dev.mcpx.client.tasks;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpCallOptions;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpTask;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpProgress;
import dev.mcpx.client.model.TaskSupport;
import dev.mcpx.client.model.Tool;
import dev.mcpx.testsupport.McpClients;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.ResponseLosingProxy;
import dev.mcpx.testsupport.ScriptedInputHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code callTool} follows a task of the official {@code server-everything} (2025-11-25
 * basic/utilities/tasks), whose {@code simulate-research-query} is {@code taskSupport: required}:
 * four stages of a second, and with {@code ambiguous} a question tied to the task
 * (§Input Required Status). What the server saw is counted by a proxy in front of it: the
 * {@code tools/call} is sent once whatever breaks on the way (a lost poll; a restart of the
 * server, which forgets the session and with it the task, as its tasks are bound to their session).
 */
class EverythingTaskCallTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private NodePeer everything;

	private ResponseLosingProxy proxy;

	@RegisterExtension
	final McpClients clients = McpClients.of(() -> McpClient.builder("everything", URI.create(this.proxy.url("/mcp")))
		.protocol(ProtocolMode.LEGACY)
		.requestTimeout(TIMEOUT));

	@BeforeEach
	void start() {
		this.everything = NodePeer.startEverything();
		this.proxy = ResponseLosingProxy.to(this.everything.port());
	}

	@AfterEach
	void stop() {
		this.proxy.close();
		this.everything.close();
	}

	@Test
	void aRequiredToolIsCalledAsATaskAndItsStagesReachTheProgressConsumer() {
		List<McpProgress> seen = new CopyOnWriteArrayList<>();
		McpClient client = this.clients.client();
		assertThat(client.listTools()).filteredOn((tool) -> tool.name().equals("simulate-research-query"))
			.extracting(Tool::taskSupport)
			.containsExactly(TaskSupport.REQUIRED);

		CallToolResult result = client.callTool("simulate-research-query", Map.of("topic", "tasks"),
				McpCallOptions.builder().onProgress(seen::add).build());

		assertThat(result.isError()).isFalse();
		assertThat(result.text()).contains("# Research Report: tasks").contains("Stage 4: Generating report");
		assertThat(seen).extracting(McpProgress::message)
			.contains("task working: Gathering sources...", "task working: Generating report...")
			.last()
			.asString()
			.startsWith("task completed");
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
		assertThat(this.proxy.requests("tasks/get")).isGreaterThanOrEqualTo(3);
		assertThat(this.proxy.requests("tasks/result")).isEqualTo(1);
	}

	@Test
	void anAmbiguousQueryAsksTheInputHandlerThroughTheTask() {
		ScriptedInputHandler handler = ScriptedInputHandler.answering(Set.of("elicitation/create"),
				(request) -> ScriptedInputHandler.accept("{\"interpretation\":\"programming\"}"));
		McpClient client = this.clients.client((builder) -> builder.inputHandler(handler));

		CallToolResult result = client.callTool("simulate-research-query",
				Map.of("topic", "python", "ambiguous", true));

		assertThat(result.text()).contains("# Research Report: python (programming)");
		assertThat(handler.requests()).hasSize(1);
		assertThat(handler.requests().get(0).params().at("/_meta/io.modelcontextprotocol~1related-task/taskId").asString())
			.isNotBlank();
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
	}

	@Test
	void withoutAnInputHandlerAnAmbiguousQueryGoesOnWithItsDefault() {
		CallToolResult result = this.clients.client()
			.callTool("simulate-research-query", Map.of("topic", "python", "ambiguous", true));

		// the server asks only a client that declared elicitation
		assertThat(result.text()).contains("# Research Report: python").doesNotContain("Clarification");
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
	}

	@Test
	void aLostPollIsPolledAgainAndTheToolIsCalledOnce() {
		this.proxy.loseResponseOfMethod("tasks/get", 2);

		CallToolResult result = this.clients.client().callTool("simulate-research-query", Map.of("topic", "cuts"));

		assertThat(result.text()).contains("# Research Report: cuts");
		assertThat(this.proxy.lost()).isEqualTo(2);
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
	}

	@Test
	void aTaskWhoseSessionWasForgottenByARestartEndsAsLostAndIsNotCalledAgain() throws Exception {
		McpClient client = this.clients.client();
		client.listTools();
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> call = caller
				.submit(() -> client.callTool("simulate-research-query", Map.of("topic", "restart")));
			awaitPolls(1);
			int port = this.everything.port();
			this.everything.close();
			this.everything = NodePeer.startEverything(port);

			// 2025-11-25 basic/utilities/tasks: its tasks lived in the forgotten session; the new
			// session is asked once, and answers -32602
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> call.get(30, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(McpTaskLostException.class)
				.withMessageContaining("may have run");
		}
		finally {
			caller.shutdownNow();
		}
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
		assertThat(this.proxy.requests("initialize")).isEqualTo(2);
	}

	@Test
	void aTaskBoundToItsSessionIsResumedByAnotherClientInThatSessionWithoutAnInitialize() {
		McpTask started = this.clients.client().startTool("simulate-research-query", Map.of("topic", "resume"));

		McpTask resumed = this.clients.client().resumeTask(started.reference());

		assertThat(resumed.await(Duration.ofSeconds(30)).text()).contains("# Research Report: resume");
		assertThat(this.proxy.requests("initialize")).isEqualTo(1);
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
	}

	@Test
	void aResumedTaskWhoseSessionARestartForgotIsLost() {
		McpTask started = this.clients.client().startTool("simulate-research-query", Map.of("topic", "gone"));
		int port = this.everything.port();
		this.everything.close();
		this.everything = NodePeer.startEverything(port);

		assertThatExceptionOfType(McpTaskLostException.class)
			.isThrownBy(() -> this.clients.client().resumeTask(started.reference()))
			.withMessageContaining(started.id());
		assertThat(this.proxy.requests("tools/call")).isEqualTo(1);
	}

	private void awaitPolls(int polls) throws InterruptedException {
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
		while (this.proxy.requests("tasks/get") < polls) {
			if (System.nanoTime() > until) {
				throw new AssertionError("no poll reached the server");
			}
			Thread.sleep(20);
		}
	}

}
