package dev.mcpx.client.internal.protocol;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.CompletionReference;
import tools.jackson.databind.node.ObjectNode;

/**
 * The parameters of the client's requests, from the API's values: the counterpart of
 * {@link ResultMapper}.
 */
public final class RequestParams {

	private RequestParams() {
	}

	/**
	 * {@code tools/call} (2025-11-25 server/tools §Calling Tools).
	 * @param jsonRpc the codec whose mapper turns the arguments into JSON
	 * @param name the tool
	 * @param arguments its arguments, absent for none
	 * @return the parameters
	 */
	public static ObjectNode toolCall(JsonRpc jsonRpc, String name, @Nullable Map<String, ?> arguments) {
		ObjectNode params = jsonRpc.object();
		params.put("name", name);
		params.set("arguments", jsonRpc.mapper().valueToTree((arguments != null) ? arguments : Map.of()));
		return params;
	}

	/**
	 * {@code prompts/get} (2025-11-25 server/prompts §Getting a Prompt).
	 * @param jsonRpc the codec
	 * @param name the prompt
	 * @param arguments its arguments, absent for none
	 * @return the parameters
	 */
	public static ObjectNode promptGet(JsonRpc jsonRpc, String name, @Nullable Map<String, String> arguments) {
		ObjectNode params = jsonRpc.object();
		params.put("name", name);
		ObjectNode args = params.putObject("arguments");
		if (arguments != null) {
			arguments.forEach(args::put);
		}
		return params;
	}

	/**
	 * {@code resources/read} (2025-11-25 server/resources §Reading Resources).
	 * @param jsonRpc the codec
	 * @param uri the resource
	 * @return the parameters
	 */
	public static ObjectNode resourceRead(JsonRpc jsonRpc, String uri) {
		ObjectNode params = jsonRpc.object();
		params.put("uri", uri);
		return params;
	}

	/**
	 * {@code completion/complete} (2025-11-25 server/utilities/completion §Requesting
	 * Completions): a prompt is referred to by name, a resource template by URI.
	 * @param jsonRpc the codec
	 * @param reference what is completed
	 * @param argument the argument's name
	 * @param value what the user typed so far, absent for nothing
	 * @param context the values of arguments already resolved, absent for none
	 * @return the parameters
	 */
	public static ObjectNode completion(JsonRpc jsonRpc, CompletionReference reference, String argument,
			@Nullable String value, @Nullable Map<String, String> context) {
		ObjectNode params = jsonRpc.object();
		ObjectNode ref = params.putObject("ref");
		ref.put("type", reference.type());
		ref.put(reference.type().equals("ref/prompt") ? "name" : "uri", reference.value());
		ObjectNode arg = params.putObject("argument");
		arg.put("name", argument);
		arg.put("value", (value != null) ? value : "");
		if (context != null && !context.isEmpty()) {
			ObjectNode arguments = params.putObject("context").putObject("arguments");
			context.forEach(arguments::put);
		}
		return params;
	}

}
