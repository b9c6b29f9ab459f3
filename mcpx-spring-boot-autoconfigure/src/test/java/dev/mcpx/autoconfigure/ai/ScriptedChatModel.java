package dev.mcpx.autoconfigure.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The only test double of the Spring AI tests: a model that calls the tool it is told to,
 * when the request offers it, then answers with what the tool returned. Spring AI's own
 * {@code ChatClient} and tool calling run around it.
 */
final class ScriptedChatModel implements ChatModel {

	/** What the model answers when the tool it should call was not offered. */
	static final String NOT_OFFERED = "NOT OFFERED: ";

	/** What the model answers after reading a tool's result. */
	static final String TOOL_SAID = "TOOL SAID: ";

	private final AtomicInteger calls = new AtomicInteger();

	private final List<List<ToolDefinition>> offered = new CopyOnWriteArrayList<>();

	private volatile String tool = "";

	private volatile String arguments = "{}";

	/**
	 * Scripts the next chat requests: call this tool with these arguments.
	 */
	void willCall(String tool, String arguments) {
		this.tool = tool;
		this.arguments = arguments;
	}

	/** The tool definitions of the last request that reached the model. */
	List<ToolDefinition> lastOffered() {
		return this.offered.get(this.offered.size() - 1);
	}

	@Override
	public ChatResponse call(Prompt prompt) {
		List<Message> messages = prompt.getInstructions();
		Message last = messages.get(messages.size() - 1);
		if (last instanceof ToolResponseMessage response) {
			return answer(AssistantMessage.builder()
				.content(TOOL_SAID + response.getResponses().get(0).responseData())
				.build());
		}
		// no callbacks at all (every upstream unavailable) is null, not an empty list
		List<ToolDefinition> definitions = (prompt.getOptions() instanceof ToolCallingChatOptions options
				&& options.getToolCallbacks() != null)
				? options.getToolCallbacks().stream().map((callback) -> callback.getToolDefinition()).toList()
				: List.of();
		this.offered.add(definitions);
		if (definitions.stream().noneMatch((definition) -> definition.name().equals(this.tool))) {
			return answer(AssistantMessage.builder().content(NOT_OFFERED + this.tool).build());
		}
		AssistantMessage.ToolCall call = new AssistantMessage.ToolCall("call-" + this.calls.incrementAndGet(),
				"function", this.tool, this.arguments);
		return answer(AssistantMessage.builder().content("").toolCalls(List.of(call)).build());
	}

	@Override
	public ChatOptions getOptions() {
		// tool-calling options, so that ChatClient hands the tool callbacks to the model
		return ToolCallingChatOptions.builder().build();
	}

	@Override
	public ChatOptions getDefaultOptions() {
		return getOptions();
	}

	private static ChatResponse answer(AssistantMessage message) {
		return new ChatResponse(List.of(new Generation(message)));
	}

}
