package dev.mcpx.client;

import java.util.Set;

import tools.jackson.databind.JsonNode;

/**
 * Answers the input a modern server asks for in the middle of a request (2026-07-28
 * basic/patterns/mrtr): an elicitation, a sampling, a roots listing. The client then sends
 * the original request again with the answers.
 */
public interface McpInputHandler {

	/**
	 * The input request methods this handler answers; they are declared as client
	 * capabilities on every modern request.
	 * @return for example {@code elicitation/create}, {@code sampling/createMessage},
	 * {@code roots/list}
	 */
	Set<String> supportedMethods();

	/**
	 * Answers one input request.
	 * @param request what the server asked
	 * @return the answer, for example an {@code ElicitResult} such as
	 * {@code {"action":"accept","content":{...}}}
	 */
	JsonNode answer(InputRequest request);

	/**
	 * One input request of a server.
	 *
	 * @param upstream the upstream name
	 * @param key the server's identifier of the request within the round
	 * @param method the input method, for example {@code elicitation/create}
	 * @param params its parameters
	 * @param originalMethod the method of the request that needs the input
	 */
	record InputRequest(String upstream, String key, String method, JsonNode params, String originalMethod) {
	}

}
