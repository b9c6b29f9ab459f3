package dev.mcpx.client.internal.session;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fills the fields an accepted elicitation left out with the defaults of the requested
 * schema (2025-11-25 client/elicitation §Requested Schema: primitive properties may carry a
 * {@code default}; SEP-1034), so a form the user accepted without touching a field answers
 * with the value the server proposed.
 */
final class ElicitationDefaults {

	static final String METHOD = "elicitation/create";

	private ElicitationDefaults() {
	}

	/**
	 * The answer with defaults applied; the handler's answer is never modified.
	 * @param params the elicitation request's parameters
	 * @param answer the handler's answer
	 * @return the answer to send
	 */
	static JsonNode apply(@Nullable JsonNode params, JsonNode answer) {
		if (params == null || !(answer instanceof ObjectNode given) || !"accept".equals(given.path("action").asString(""))) {
			return answer;
		}
		JsonNode properties = params.path("requestedSchema").path("properties");
		if (!properties.isObject()) {
			return answer;
		}
		ObjectNode filled = given.deepCopy();
		ObjectNode content = (filled.get("content") instanceof ObjectNode existing) ? existing
				: filled.putObject("content");
		for (Map.Entry<String, JsonNode> property : properties.properties()) {
			JsonNode defaultValue = property.getValue().get("default");
			if (defaultValue != null && !defaultValue.isNull() && !content.has(property.getKey())) {
				content.set(property.getKey(), defaultValue.deepCopy());
			}
		}
		return filled;
	}

}
