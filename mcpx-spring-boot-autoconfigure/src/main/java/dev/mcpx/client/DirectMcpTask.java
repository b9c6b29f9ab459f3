package dev.mcpx.client;

import java.time.Duration;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;

/**
 * The {@link McpTask} of a call the server answered directly (its tool does not support tasks,
 * or the server does not offer them): completed from the start, with an id the client made up.
 */
final class DirectMcpTask implements McpTask {

	/** Marks the ids the client made up, which no server gave. */
	static final String ID_PREFIX = "mcpx-direct-";

	private final String upstream;

	private final String tool;

	private final String id = ID_PREFIX + UUID.randomUUID();

	private final CallToolResult result;

	DirectMcpTask(String upstream, String tool, CallToolResult result) {
		this.upstream = upstream;
		this.tool = tool;
		this.result = result;
	}

	@Override
	public String id() {
		return this.id;
	}

	@Override
	public String upstream() {
		return this.upstream;
	}

	@Override
	public String tool() {
		return this.tool;
	}

	@Override
	public McpTaskStatus status() {
		return McpTaskStatus.COMPLETED;
	}

	@Override
	public @Nullable String statusMessage() {
		return null;
	}

	@Override
	public CallToolResult await(Duration timeout) {
		return this.result;
	}

	@Override
	public java.util.concurrent.CompletableFuture<CallToolResult> awaitAsync(Duration timeout) {
		return java.util.concurrent.CompletableFuture.completedFuture(this.result);
	}

	@Override
	public boolean cancel() {
		return false;
	}

	@Override
	public McpTaskReference reference() {
		return new McpTaskReference(this.upstream, this.id, this.tool, true, null);
	}

	@Override
	public String toString() {
		return "McpTask[upstream=" + this.upstream + ", id=" + this.id + ", tool=" + this.tool
				+ ", answered directly]";
	}

}
