package dev.mcpx.client.internal.session;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpInputRequiredException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The rounds of input of a modern request (2026-07-28 basic/patterns/mrtr): a result that
 * asks for input is answered through the application's input handler, and the request is
 * sent again with the answers and the server's {@code requestState}, a bounded number of
 * times. What the handler answers is also what the client declares it can be asked. The input
 * requests of a 2026-07-28 task are answered the same way, one at a time
 * ({@link #answer}; tasks extension §Task Update Requests: treated as the equivalent standalone
 * request).
 */
public final class InputRounds {

	/** Rounds of input one request may ask for: a server may re-prompt, but not forever. */
	static final int MAX_INPUT_ROUNDS = 8;

	private static final Map<String, String> CAPABILITY_OF_INPUT = Map.of("elicitation/create", "elicitation",
			"sampling/createMessage", "sampling", "roots/list", "roots");

	private final String upstream;

	private final @Nullable InputAnswers inputHandler;

	/**
	 * Creates the input rounds of one client.
	 * @param upstream the upstream name
	 * @param inputHandler the application's input handler, absent when there is none
	 */
	public InputRounds(String upstream, @Nullable InputAnswers inputHandler) {
		this.upstream = upstream;
		this.inputHandler = inputHandler;
	}

	/** Declares, in the client's capabilities, the kinds of input the handler answers. */
	void declare(ObjectNode clientCapabilities) {
		if (this.inputHandler == null) {
			return;
		}
		for (String method : this.inputHandler.methods()) {
			String capability = CAPABILITY_OF_INPUT.get(method);
			if (capability != null) {
				clientCapabilities.putObject(capability);
			}
		}
	}

	static boolean isInputRequired(JsonNode result) {
		return "input_required".equals(result.path("resultType").asString(""));
	}

	/**
	 * The parameters of the request's next round: the original ones, the answers, and the
	 * server's {@code requestState} echoed exactly; neither when the server sent none
	 * (2026-07-28 basic/patterns/mrtr §Client Requirements).
	 * @param round the round about to be sent, from 1
	 */
	ObjectNode next(ObjectNode original, JsonNode result, String method, int round) {
		if (round > MAX_INPUT_ROUNDS) {
			throw new McpInputRequiredException(this.upstream,
					method + " still asked for input after " + MAX_INPUT_ROUNDS + " rounds; giving up",
					inputMethods(result));
		}
		ObjectNode retry = original.deepCopy();
		retry.remove("inputResponses");
		retry.remove("requestState");
		JsonNode inputRequests = result.get("inputRequests");
		if (inputRequests != null && inputRequests.isObject() && !inputRequests.isEmpty()) {
			if (this.inputHandler == null) {
				throw new McpInputRequiredException(this.upstream, method + " needs input (" + inputMethods(result)
						+ ") and no McpInputHandler is configured", inputMethods(result));
			}
			ObjectNode responses = retry.putObject("inputResponses");
			for (Map.Entry<String, JsonNode> entry : inputRequests.properties()) {
				responses.set(entry.getKey(), answer(entry.getKey(), entry.getValue(), method));
			}
		}
		JsonNode requestState = result.get("requestState");
		if (requestState != null && !requestState.isNull()) {
			retry.set("requestState", requestState);
		}
		return retry;
	}

	/**
	 * Answers one input request through the application's input handler.
	 * @param key the server's key of the request
	 * @param inputRequest the request: its {@code method} and {@code params}
	 * @param method the method of the client request that needs the input
	 * @return the answer, with an elicitation's schema defaults applied
	 * @throws McpInputRequiredException when there is no handler, or it does not answer that
	 * kind of input
	 */
	public JsonNode answer(String key, JsonNode inputRequest, String method) {
		String inputMethod = inputRequest.path("method").asString("");
		InputAnswers handler = this.inputHandler;
		if (handler == null) {
			throw new McpInputRequiredException(this.upstream, method + " needs input (" + inputMethod
					+ ") and no McpInputHandler is configured", Set.of(inputMethod));
		}
		if (!handler.methods().contains(inputMethod)) {
			throw new McpInputRequiredException(this.upstream, method + " needs input (" + inputMethod
					+ ") the configured McpInputHandler does not answer", Set.of(inputMethod));
		}
		JsonNode inputParams = inputRequest.get("params");
		JsonNode answer = handler.answer(key, inputMethod, inputParams, method);
		return ElicitationDefaults.METHOD.equals(inputMethod) ? ElicitationDefaults.apply(inputParams, answer) : answer;
	}

	private static Set<String> inputMethods(JsonNode result) {
		Set<String> methods = new LinkedHashSet<>();
		for (JsonNode request : result.path("inputRequests")) {
			methods.add(request.path("method").asString("?"));
		}
		return methods;
	}

}
