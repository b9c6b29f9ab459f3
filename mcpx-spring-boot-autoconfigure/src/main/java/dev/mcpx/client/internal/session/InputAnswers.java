package dev.mcpx.client.internal.session;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * Answers the input a server asks of the client: elicitations, samplings, roots listings.
 * The application's {@code McpInputHandler} seen from inside the client, so that the
 * session layer does not depend on the public API above it.
 */
public interface InputAnswers {

	/**
	 * The input methods answered, declared as client capabilities.
	 * @return for example {@code elicitation/create}
	 */
	Set<String> methods();

	/**
	 * Answers one input request.
	 * @param key the server's identifier of the request within its round (the JSON-RPC id
	 * of a server request)
	 * @param method the input method
	 * @param params its parameters
	 * @param originalMethod the method of the client request that needs the input
	 * @return the answer
	 */
	JsonNode answer(String key, String method, @Nullable JsonNode params, String originalMethod);

}
