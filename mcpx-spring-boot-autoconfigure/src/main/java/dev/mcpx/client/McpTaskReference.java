package dev.mcpx.client;

import java.io.Serializable;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What it takes to follow a task again, from another thread, another client of the same
 * upstream, or another process: {@link McpClient#resumeTask(McpTaskReference)}. Small, immutable
 * and serializable.
 * <p>
 * A 2025-11-25 task may be bound to the session that created it (the TypeScript SDK's servers
 * answer {@code tasks/get} only there), so the reference carries that session: its id, protocol
 * version and the server's capabilities ({@link McpTaskRecord.BoundSession}). The session id is a
 * secret: {@link #toString()} shows it redacted, and a reference should be kept where a session
 * id may be kept (docs/security.md, "The task journal").
 *
 * @param upstream the upstream name
 * @param taskId the id the server gave the task; for a call answered directly, an id the client
 * made up
 * @param tool the tool the task runs
 * @param direct whether the call was answered directly, without a task: there is nothing to
 * resume
 * @param session the legacy session the task is bound to, absent when it is bound to none
 */
public record McpTaskReference(String upstream, String taskId, String tool, boolean direct,
		McpTaskRecord.@Nullable BoundSession session) implements Serializable {

	private static final long serialVersionUID = 1L;

	/**
	 * A reference, checked.
	 */
	public McpTaskReference {
		Objects.requireNonNull(upstream, "upstream");
		Objects.requireNonNull(taskId, "taskId");
		Objects.requireNonNull(tool, "tool");
		if (taskId.isBlank()) {
			throw new IllegalArgumentException("A task id must not be empty");
		}
	}

	/**
	 * The reference, with the bound session redacted.
	 * @return a description safe to log
	 */
	@Override
	public String toString() {
		return "McpTaskReference[upstream=" + this.upstream + ", taskId=" + this.taskId + ", tool=" + this.tool
				+ ", direct=" + this.direct + ", session=" + this.session + "]";
	}

}
