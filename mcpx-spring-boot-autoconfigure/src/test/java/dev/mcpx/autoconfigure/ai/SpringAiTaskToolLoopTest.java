package dev.mcpx.autoconfigure.ai;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring AI tool loop over a tool that runs as a 2025-11-25 task (basic/utilities/tasks),
 * against the project's task peer ({@link NodePeer#LEGACY_TASKS}): the callback follows the task
 * as {@code callTool} does, and when the task outlives the call's bound the model is told the
 * task id and that the work still runs, never that it failed; the task is left running on the
 * server (counted there).
 */
class SpringAiTaskToolLoopTest {

	private final ScriptedChatModel model = new ScriptedChatModel();

	private NodePeer peer;

	@BeforeEach
	void start() {
		this.peer = NodePeer.start(NodePeer.LEGACY_TASKS);
	}

	@AfterEach
	void stop() {
		this.peer.close();
	}

	@Test
	void aToolThatBecomesATaskAnswersTheModelWithItsResult() {
		ChatApp.contextRunner("tasks", this.peer.url()).withPropertyValues("mcpx.clients.tasks.protocol=legacy")
			.run((context) -> {
				String answer = new ChatApp(context, this.model).ask("delete_record", "{\"id\":\"s1\",\"durationMs\":300}");
				assertThat(answer).isEqualTo(ScriptedChatModel.TOOL_SAID + "Deleted record s1");
				assertThat(this.peer.counts().at("/augmented/delete_record").asInt()).isEqualTo(1);
				assertThat(this.peer.counts().at("/executions/delete_record").asInt()).isEqualTo(1);
			});
	}

	@Test
	void aTaskThatOutlivesTheCallIsReportedAsStillRunningWithItsIdAndLeftRunning() {
		ChatApp.contextRunner("tasks", this.peer.url())
			.withPropertyValues("mcpx.clients.tasks.protocol=legacy", "mcpx.clients.tasks.request-timeout=1s")
			.run((context) -> {
				String answer = new ChatApp(context, this.model).ask("delete_record",
						"{\"id\":\"s2\",\"durationMs\":60000,\"pollIntervalMs\":100}");
				String taskId = this.peer.admin("GET", "tasks").at("/tasks/0/taskId").asString();
				assertThat(answer).startsWith(ScriptedChatModel.TOOL_SAID)
					.contains("STILL RUNNING")
					.contains("NOT failed")
					.contains(taskId)
					.doesNotContain("MAY HAVE RUN");
				JsonNode counts = this.peer.counts();
				assertThat(counts.at("/tasks/working").asInt()).isEqualTo(1);
				assertThat(counts.at("/requests/tasks~1cancel").asInt()).isZero();
				assertThat(counts.at("/executions/delete_record").asInt()).isEqualTo(1);
			});
	}

}
