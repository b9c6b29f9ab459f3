package dev.mcpx.testsupport;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import dev.mcpx.client.McpInputHandler;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An {@link McpInputHandler} whose answers a test scripts, and which records every input
 * request it was asked, so a test can assert what the server asked as well as what it
 * received (2025-11-25 client/elicitation, client/sampling, client/roots; 2026-07-28
 * basic/patterns/mrtr).
 */
public final class ScriptedInputHandler implements McpInputHandler {

	private static final JsonMapper JSON = JsonMapper.shared();

	private final Set<String> methods;

	private final Function<InputRequest, JsonNode> answers;

	private final List<InputRequest> requests = new CopyOnWriteArrayList<>();

	private ScriptedInputHandler(Set<String> methods, Function<InputRequest, JsonNode> answers) {
		this.methods = Set.copyOf(methods);
		this.answers = answers;
	}

	/**
	 * A handler of some input methods.
	 * @param methods the methods it declares and answers, for example
	 * {@code elicitation/create}
	 * @param answers the answer to each request (it may throw, or take its time)
	 * @return the handler
	 */
	public static ScriptedInputHandler answering(Set<String> methods, Function<InputRequest, JsonNode> answers) {
		return new ScriptedInputHandler(methods, answers);
	}

	/**
	 * A handler that accepts every form ({@code elicitation/create}) with the same content.
	 * @param content the content, a JSON object, for example {@code {"name":"Grace"}}
	 * @return the handler
	 */
	public static ScriptedInputHandler acceptingForms(String content) {
		// a new answer each time, as a handler written inline gives
		return answering(Set.of("elicitation/create"), (request) -> accept(content));
	}

	/**
	 * An {@code ElicitResult} that accepts a form.
	 * @param content the content, a JSON object
	 * @return {@code {"action":"accept","content":<content>}}
	 */
	public static ObjectNode accept(String content) {
		ObjectNode answer = JSON.createObjectNode().put("action", "accept");
		answer.set("content", JSON.readTree(content));
		return answer;
	}

	/**
	 * A {@code CreateMessageResult} of an assistant's text.
	 * @param model the model named in the result
	 * @param text the text sampled
	 * @return {@code {"role":"assistant","model":<model>,"content":{"type":"text","text":<text>}}}
	 */
	public static ObjectNode sampled(String model, String text) {
		ObjectNode message = JSON.createObjectNode().put("role", "assistant").put("model", model);
		message.putObject("content").put("type", "text").put("text", text);
		return message;
	}

	/**
	 * What the servers asked this handler, oldest first.
	 * @return the live list
	 */
	public List<InputRequest> requests() {
		return this.requests;
	}

	@Override
	public Set<String> supportedMethods() {
		return this.methods;
	}

	@Override
	public JsonNode answer(InputRequest request) {
		this.requests.add(request);
		return this.answers.apply(request);
	}

}
