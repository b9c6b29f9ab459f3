package dev.mcpx.client;

import java.util.Set;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * Answers the input a server asks of the client, in both eras: an elicitation, a sampling, a
 * roots listing. A legacy server sends a request on a response stream or the GET stream
 * (2025-11-25 client/elicitation, client/sampling, client/roots), answered in the same
 * session; a modern server asks for it in a result, and the client sends the original request
 * again with the answers (2026-07-28 basic/patterns/mrtr).
 * <p>
 * Called on a thread of its own, never the one that reads a stream; an answer that takes
 * longer than the client's input-handler timeout, or an exception, is answered to a legacy
 * server with a JSON-RPC error (its message redacted). An accepted form that leaves a field
 * out gets the field's {@code default} from the requested schema.
 */
public interface McpInputHandler {

	/**
	 * The input request methods this handler answers; they are declared as client
	 * capabilities in a legacy {@code initialize} and on every modern request, and a request
	 * for any other is answered method-not-found.
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
	 * @param params its parameters, absent when the server sent none
	 * @param originalMethod the method of the request that needs the input (a legacy request
	 * that arrived on the GET stream names {@code listen})
	 */
	record InputRequest(String upstream, String key, String method, @Nullable JsonNode params,
			String originalMethod) {
	}

}
