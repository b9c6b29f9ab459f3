package dev.mcpx.autoconfigure.ai;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.definition.ToolDefinition;
import reactor.core.publisher.Flux;

/**
 * The only test double of the Spring AI tests: a model that calls the tool it is told to,
 * when the request offers it, then answers with what the tool returned. Spring AI's own
 * {@code ChatClient} and tool calling run around it, blocking ({@code call}) or streaming
 * ({@code stream}, one chunk per answer).
 */
public final class ScriptedChatModel implements ChatModel {

	/** What the model answers when the tool it should call was not offered. */
	public static final String NOT_OFFERED = "NOT OFFERED: ";

	/** What the model answers after reading a tool's result. */
	public static final String TOOL_SAID = "TOOL SAID: ";

	private final AtomicInteger calls = new AtomicInteger();

	private final List<List<ToolDefinition>> offered = new CopyOnWriteArrayList<>();

	private volatile String tool = "";

	private volatile String arguments = "{}";

	/** Whether the arguments are the request's user message, as {@code {"text": ...}}. */
	private volatile boolean echoUserText;

	/** The threads on which the model read a tool's result: where the tool loop went on. */
	private final List<String> toolResultThreads = new CopyOnWriteArrayList<>();

	/**
	 * Scripts the next chat requests: call this tool with these arguments.
	 */
	void willCall(String tool, String arguments) {
		this.tool = tool;
		this.arguments = arguments;
		this.echoUserText = false;
	}

	/**
	 * Scripts the next chat requests: call this tool with {@code {"text": <the user message>}},
	 * so that concurrent requests each send their own argument.
	 * @param tool the tool's name
	 */
	public void willCallWithUserText(String tool) {
		this.tool = tool;
		this.echoUserText = true;
	}

	/**
	 * The threads on which the model read a tool's result.
	 * @return the thread names, one per tool round
	 */
	public List<String> toolResultThreads() {
		return this.toolResultThreads;
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
			this.toolResultThreads.add(Thread.currentThread().getName());
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
		String toolArguments = this.echoUserText ? "{\"text\":\"" + userText(messages) + "\"}" : this.arguments;
		AssistantMessage.ToolCall call = new AssistantMessage.ToolCall("call-" + this.calls.incrementAndGet(),
				"function", this.tool, toolArguments);
		return answer(AssistantMessage.builder().content("").toolCalls(List.of(call)).build());
	}

	@Override
	public Flux<ChatResponse> stream(Prompt prompt) {
		// answered when subscribed, on the thread Spring AI's stream runs it on
		return Flux.defer(() -> Flux.just(call(prompt)));
	}

	/** The last user message, which the tests keep to letters, digits and dashes. */
	private static String userText(List<Message> messages) {
		for (int i = messages.size() - 1; i >= 0; i--) {
			if (messages.get(i) instanceof UserMessage user && user.getText() != null) {
				return user.getText();
			}
		}
		return "";
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
