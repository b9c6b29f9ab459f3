package dev.mcpx.sample;

import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a Spring AI model gets from mcpx: the tool definitions (names, descriptions, input
 * schemas) of every upstream, as of now, and a chat endpoint when a model is plugged in (the
 * {@code openai} profile).
 */
@RestController
@RequestMapping("/spring-ai")
public class SpringAiController {

	private static final JsonMapper json = JsonMapper.shared();

	private final ToolCallbackProvider tools;

	private final ObjectProvider<ChatModel> model;

	/**
	 * Creates the controller.
	 * @param tools mcpx's tool callbacks
	 * @param model the application's model, if one is configured
	 */
	public SpringAiController(ToolCallbackProvider tools, ObjectProvider<ChatModel> model) {
		this.tools = tools;
		this.model = model;
	}

	/**
	 * The tool definitions the model would get in a chat request now; an upstream that is
	 * down is left out.
	 * @return one entry per tool
	 */
	@GetMapping("/tools")
	public List<ToolView> tools() {
		return Arrays.stream(this.tools.getToolCallbacks())
			.map((callback) -> callback.getToolDefinition())
			.map((definition) -> new ToolView(definition.name(), definition.description(),
					json.readTree(definition.inputSchema())))
			.toList();
	}

	/**
	 * Asks the configured model, with every upstream's tools.
	 * @param question the user's message
	 * @return the model's answer
	 */
	@PostMapping("/chat")
	public @Nullable String chat(@RequestBody String question) {
		ChatModel chatModel = this.model.getIfAvailable();
		if (chatModel == null) {
			throw new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
					"No model is configured; run with the Maven profile and Spring profile openai (README, Spring AI)");
		}
		return ChatClient.builder(chatModel).defaultToolCallbacks(this.tools).build().prompt().user(question).call()
			.content();
	}

	/**
	 * One tool as the model sees it.
	 * @param name the name the model calls it by
	 * @param description what it does
	 * @param inputSchema the JSON Schema of its arguments, verbatim from the server
	 */
	public record ToolView(String name, String description, JsonNode inputSchema) {
	}

}
