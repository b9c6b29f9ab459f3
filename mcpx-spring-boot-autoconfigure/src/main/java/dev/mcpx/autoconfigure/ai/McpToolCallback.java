package dev.mcpx.autoconfigure.ai;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;

import dev.mcpx.client.McpCallOptions;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTaskStillRunningException;
import dev.mcpx.client.error.McpTimeoutException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Content;
import dev.mcpx.client.model.ResourceContents;
import dev.mcpx.client.model.Tool;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One tool of one upstream as a Spring AI {@link ToolCallback}: each call is one
 * {@link McpClient#callTool} call, so the client's recovery applies and nothing here retries.
 * Spring AI's {@link ToolContext} is never sent to the server: it holds the application's
 * own data.
 */
public final class McpToolCallback implements ToolCallback {

	/** A task the call outlives runs on: the model is told so, rather than that it failed. */
	private static final McpCallOptions LEAVE_TASK_RUNNING = McpCallOptions.builder().leaveTaskRunning(true).build();

	private final McpClient client;

	private final Tool tool;

	private final ToolDefinition definition;

	private final JsonMapper json;

	/** The user of the chat request this callback was handed out for, carried to the thread that calls it. */
	private final CallerContext caller;

	McpToolCallback(McpClient client, Tool tool, String name, JsonMapper json) {
		this(client, tool, ToolDefinition.builder()
			.name(name)
			.description(description(tool))
			// verbatim: JSON Schema 2020-12 keywords ($defs, additionalProperties) reach the model
			.inputSchema(json.writeValueAsString(tool.inputSchema()))
			.build(), json, CallerContext.NONE);
	}

	private McpToolCallback(McpClient client, Tool tool, ToolDefinition definition, JsonMapper json,
			CallerContext caller) {
		this.client = client;
		this.tool = tool;
		this.definition = definition;
		this.json = json;
		this.caller = caller;
	}

	/**
	 * This callback for one chat request: its calls run with that request's user on
	 * whichever thread Spring AI runs them.
	 * @param requestCaller the context of the request's thread
	 * @return this callback when there is no user to carry, else a copy that carries it
	 */
	McpToolCallback forRequest(CallerContext requestCaller) {
		return requestCaller.hasUser()
				? new McpToolCallback(this.client, this.tool, this.definition, this.json, requestCaller) : this;
	}

	/**
	 * The upstream this tool belongs to.
	 * @return the upstream name
	 */
	public String upstream() {
		return this.client.name();
	}

	/**
	 * The tool as the server listed it; its name may differ from the one the model sees.
	 * @return the tool
	 */
	public Tool tool() {
		return this.tool;
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.definition;
	}

	@Override
	public String call(String toolInput) {
		return this.caller.run(this.definition.name(), () -> callTool(toolInput));
	}

	private String callTool(String toolInput) {
		Map<String, Object> arguments = arguments(toolInput);
		CallToolResult result;
		try {
			// A task that outlives the call is left running: the model is told it still runs.
			result = this.client.callTool(this.tool.name(), arguments, LEAVE_TASK_RUNNING);
		}
		catch (McpTaskStillRunningException ex) {
			throw new ToolExecutionException(this.definition, new ToolCallFailure(stillRunning(ex), ex));
		}
		catch (McpException ex) {
			throw new ToolExecutionException(this.definition, new ToolCallFailure(failure(ex), ex));
		}
		return text(result);
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		// The context holds the application's own data, never meant for the server.
		return call(toolInput);
	}

	private Map<String, Object> arguments(@Nullable String toolInput) {
		if (toolInput == null || toolInput.isBlank()) {
			return Map.of();
		}
		JsonNode node;
		try {
			node = this.json.readTree(toolInput);
		}
		catch (JacksonException ex) {
			throw notSent("its arguments are not valid JSON (" + ex.getOriginalMessage() + ")");
		}
		if (node == null || node.isNull() || node.isMissingNode()) {
			return Map.of();
		}
		if (!node.isObject()) {
			throw notSent("its arguments must be a JSON object, were " + node.getNodeType().name().toLowerCase());
		}
		Map<String, Object> arguments = new LinkedHashMap<>();
		node.properties().forEach((entry) -> arguments.put(entry.getKey(), entry.getValue()));
		return arguments;
	}

	private ToolExecutionException notSent(String why) {
		String message = "Tool '" + this.definition.name() + "' was not called: " + why
				+ ". Nothing was sent to the server; call it again with a JSON object of arguments.";
		return new ToolExecutionException(this.definition, new ToolCallFailure(message, null));
	}

	/**
	 * What the model reads about a task that outlived the call: it has not failed, it runs on,
	 * under this id (2025-11-25 basic/utilities/tasks).
	 */
	private String stillRunning(McpTaskStillRunningException ex) {
		return "Tool '" + this.definition.name() + "' is STILL RUNNING on the MCP server '" + this.client.name()
				+ "' as task " + ex.taskId() + ": it has NOT failed, and its result is not available yet. Do not call "
				+ "it again; the work goes on under task id " + ex.taskId() + ".";
	}

	/**
	 * What the model reads about a failed call. When the request may have reached the
	 * server, the model is told plainly that the tool may have run and was not retried
	 * (the client re-issues only what its replay gate allows; docs/architecture.md), so it
	 * does not call a destructive tool twice by itself.
	 */
	private String failure(McpException ex) {
		String name = this.definition.name();
		if (mayHaveRun(ex)) {
			return "Tool '" + name + "' MAY HAVE RUN on the MCP server '" + this.client.name()
					+ "', but its result was lost, and the call was NOT RETRIED. Do not assume it failed: check "
					+ "its effect before calling it again. Cause: " + ex.getMessage();
		}
		return "Tool '" + name + "' failed on the MCP server '" + this.client.name() + "': " + ex.getMessage();
	}

	private static boolean mayHaveRun(McpException ex) {
		return ex instanceof McpStreamLostException || ex instanceof McpSessionExpiredException
				|| ex instanceof McpRecoveryFailedException || ex instanceof McpTimeoutException
				|| ex instanceof McpTransportException;
	}

	/**
	 * The result as the model reads it: structured content when the tool declares an
	 * output schema, otherwise the content blocks, binary ones described rather than pasted.
	 * A tool-level error ({@code isError}) is a result the model should read, not an
	 * exception.
	 */
	private String text(CallToolResult result) {
		if (this.tool.outputSchema() != null && result.structuredContent() != null) {
			return this.json.writeValueAsString(result.structuredContent());
		}
		StringJoiner text = new StringJoiner("\n");
		for (Content block : result.content()) {
			text.add(describe(block));
		}
		if (text.length() == 0 && result.structuredContent() != null) {
			return this.json.writeValueAsString(result.structuredContent());
		}
		if (text.length() == 0 && result.isError()) {
			return "Tool '" + this.definition.name() + "' reported an error without a message.";
		}
		return text.toString();
	}

	private static String describe(Content block) {
		if (block instanceof Content.Text text) {
			return text.text();
		}
		if (block instanceof Content.Image image) {
			return "[image: " + image.mimeType() + ", " + decodedSize(image.data()) + " bytes]";
		}
		if (block instanceof Content.Audio audio) {
			return "[audio: " + audio.mimeType() + ", " + decodedSize(audio.data()) + " bytes]";
		}
		if (block instanceof Content.Link link) {
			return "[resource link: " + link.uri() + ((link.mimeType() != null) ? ", " + link.mimeType() : "") + "]";
		}
		if (block instanceof Content.Embedded embedded) {
			ResourceContents resource = embedded.resource();
			String size = (resource.text() != null) ? resource.text().length() + " characters"
					: (resource.blob() != null) ? decodedSize(resource.blob()) + " bytes" : "empty";
			return "[embedded resource: " + resource.uri()
					+ ((resource.mimeType() != null) ? ", " + resource.mimeType() : "") + ", " + size + "]";
		}
		return "[" + block.type() + " content]";
	}

	/** The size of base64 data once decoded, without decoding it. */
	private static long decodedSize(@Nullable String base64) {
		if (base64 == null) {
			return 0;
		}
		long chars = 0;
		long padding = 0;
		for (int i = 0; i < base64.length(); i++) {
			char c = base64.charAt(i);
			if (c == '=') {
				padding++;
			}
			else if (!Character.isWhitespace(c)) {
				chars++;
			}
		}
		return (chars + padding) * 3 / 4 - padding;
	}

	private static String description(Tool tool) {
		if (tool.description() != null && !tool.description().isBlank()) {
			return tool.description();
		}
		return (tool.title() != null) ? tool.title() : tool.name();
	}

	@Override
	public String toString() {
		return "McpToolCallback[" + this.definition.name() + " -> " + this.client.name() + "/" + this.tool.name() + "]";
	}

	/**
	 * The cause of a {@link ToolExecutionException}, whose message Spring AI's default
	 * exception processor hands to the model.
	 */
	static final class ToolCallFailure extends RuntimeException {

		ToolCallFailure(String message, @Nullable Throwable cause) {
			super(message, cause);
		}

	}

}
