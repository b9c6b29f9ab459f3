package dev.mcpx.testpeer.springai;

import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.ai.mcp.annotation.McpTool;
import org.springframework.ai.mcp.annotation.McpTool.McpAnnotations;
import org.springframework.ai.mcp.annotation.McpToolParam;
import org.springframework.ai.mcp.annotation.context.McpSyncRequestContext;
import org.springframework.stereotype.Component;

/**
 * The tools, declared with Spring AI's own annotations, one of each kind the replay gate
 * tells apart (docs/architecture.md, "The replay gate"): read-only, idempotent, destructive;
 * and a read-only one whose answer comes second on its event stream, after a request of the
 * server's own. Each records its execution before it answers. A halt armed for a tool
 * ({@code POST /admin/halt?tool=…}) makes its next call end the process right after the
 * execution is recorded, before any answer: the response is lost with the process, as in a
 * crash.
 */
@Component
public class PeerTools {

	private final EventLog log;

	private final AtomicReference<String> haltOn = new AtomicReference<>("");

	PeerTools(EventLog log) {
		this.log = log;
	}

	@McpTool(name = "echo", description = "Answers with the text it is given",
			annotations = @McpAnnotations(readOnlyHint = true, destructiveHint = false, openWorldHint = false))
	public String echo(@McpToolParam(description = "the text to answer with", required = true) String text) {
		executed("echo", Map.of("text", text));
		return text;
	}

	@McpTool(name = "set_value", description = "Sets a key to a value; setting it again changes nothing",
			annotations = @McpAnnotations(readOnlyHint = false, destructiveHint = false, idempotentHint = true,
					openWorldHint = false))
	public String setValue(@McpToolParam(description = "the key", required = true) String key,
			@McpToolParam(description = "the value", required = true) String value) {
		executed("set_value", Map.of("key", key, "value", value));
		return key + "=" + value;
	}

	@McpTool(name = "delete_item", description = "Deletes an item",
			annotations = @McpAnnotations(readOnlyHint = false, destructiveHint = true, idempotentHint = false,
					openWorldHint = false))
	public String deleteItem(@McpToolParam(description = "the item's id", required = true) String id) {
		executed("delete_item", Map.of("id", id));
		return "deleted " + id;
	}

	/**
	 * Pings the client before answering (2025-11-25 basic/utilities/ping), so that with sessions
	 * the call's event stream holds a complete event (the ping) before the one with the answer;
	 * both carry the session id as their {@code id:}. Without sessions there is no one to ping.
	 */
	@McpTool(name = "echo_after_ping", description = "Pings the client, then answers with the text it is given",
			annotations = @McpAnnotations(readOnlyHint = true, destructiveHint = false, openWorldHint = false))
	public String echoAfterPing(McpSyncRequestContext context,
			@McpToolParam(description = "the text to answer with", required = true) String text) {
		context.ping();
		executed("echo_after_ping", Map.of("text", text));
		return text;
	}

	void haltOnNextCallOf(String tool) {
		this.haltOn.set(tool);
	}

	private void executed(String tool, Map<String, ?> args) {
		this.log.execution(tool, args);
		String armed = this.haltOn.get();
		if (tool.equals(armed) && this.haltOn.compareAndSet(armed, "")) {
			Runtime.getRuntime().halt(SpringAiServerApplication.HALT_STATUS);
		}
	}

}
