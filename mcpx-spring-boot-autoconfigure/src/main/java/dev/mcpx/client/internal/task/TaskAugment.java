package dev.mcpx.client.internal.task;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.catalogue.ToolRegistry;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.recovery.RecoveringExecutor;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.TaskSupport;
import dev.mcpx.client.recovery.TaskAugmentation;
import tools.jackson.databind.JsonNode;

/**
 * Whether a 2025-11-25 tool call asks the server for a task (basic/utilities/tasks
 * §Tool-Level Negotiation), as a ladder of guards: never without the server's
 * {@code tasks.requests.tools.call} capability (rule 1) or for a tool that does not declare
 * task support (rule 2.1), always for a {@code required} one (rule 2.3), and for an
 * {@code optional} one as {@link TaskAugmentation} says: by default exactly when the call
 * would not be sent again after a lost response, since a task is then the only way to learn
 * its outcome (docs/architecture.md, "Tasks").
 */
public final class TaskAugment {

	private final TaskAugmentation augmentation;

	private final ToolRegistry tools;

	private final RecoveringExecutor executor;

	/**
	 * Creates the decision of one client.
	 * @param augmentation the upstream's setting for optional tools
	 * @param tools what the client learned of each tool at list time
	 * @param executor the recovery loop, asked whether a lost response would be re-sent
	 */
	public TaskAugment(TaskAugmentation augmentation, ToolRegistry tools, RecoveringExecutor executor) {
		this.augmentation = augmentation;
		this.tools = tools;
		this.executor = executor;
	}

	/**
	 * Whether a call of the tool asks for a task.
	 * @param on the session it is sent on
	 * @param tool the tool name
	 * @param timeout the call's timeout
	 * @return {@code true} to add {@code task} to the call's parameters
	 */
	public boolean asksForTask(SessionState on, String tool, Duration timeout) {
		if (on.era() != ProtocolEra.LEGACY || !declaresToolTasks(on.capabilities())) {
			return false;
		}
		TaskSupport support = this.tools.taskSupport(tool);
		return switch (support) {
			case FORBIDDEN -> false;
			case REQUIRED -> true;
			case OPTIONAL -> switch (this.augmentation) {
				case ALWAYS -> true;
				case NEVER -> false;
				case UNSAFE -> !this.executor
					.resendsAfterLostResponse(new McpRequest(McpMethods.TOOLS_CALL, null, tool, timeout));
			};
		};
	}

	/**
	 * Whether a call of the tool may be a task at all: the server declared task-augmented tool
	 * calls and the tool's task support is {@code optional} or {@code required}. What
	 * {@code startTool} asks, since its caller wants a handle whenever there can be one.
	 * @param on the session it is sent on
	 * @param tool the tool name
	 * @return {@code true} when the call may carry {@code task}
	 */
	public boolean mayBeTask(SessionState on, String tool) {
		return on.era() == ProtocolEra.LEGACY && declaresToolTasks(on.capabilities())
				&& this.tools.taskSupport(tool) != TaskSupport.FORBIDDEN;
	}

	/** 2025-11-25 basic/utilities/tasks §Server Capabilities: {@code tasks.requests.tools.call}. */
	private static boolean declaresToolTasks(@Nullable JsonNode capabilities) {
		return capabilities != null && capabilities.path("tasks").path("requests").path("tools").has("call");
	}

	/**
	 * The task a {@code tools/call} result names: a 2025-11-25 {@code CreateTaskResult}
	 * (§Creating Tasks, the task in {@code task}), or a 2026-07-28 one (tasks extension §Task
	 * Creation: {@code resultType: "task"} and the task's fields in the result itself); absent for
	 * a direct result.
	 * @param upstream the upstream name
	 * @param tool the tool called
	 * @param result the result
	 * @return the task's state as created
	 * @throws dev.mcpx.client.error.McpProtocolException for a task the client cannot follow
	 */
	public static @Nullable TaskState created(String upstream, String tool, JsonNode result) {
		if (isExtensionTask(result)) {
			return TaskState.of(upstream, result, "the CreateTaskResult of tool '" + tool + "'");
		}
		JsonNode task = result.get("task");
		if (task == null || !task.isObject() || result.has("content")) {
			return null;
		}
		return TaskState.of(upstream, task, "the CreateTaskResult of tool '" + tool + "'");
	}

	/**
	 * Whether a result is a 2026-07-28 {@code CreateTaskResult} (tasks extension §Polymorphic
	 * Results: the server MUST set {@code resultType} to {@code "task"}).
	 * @param result a {@code tools/call} result
	 * @return {@code true} for a task of the extension
	 */
	public static boolean isExtensionTask(JsonNode result) {
		return "task".equals(result.path("resultType").asString(""));
	}

}
