package dev.mcpx.autoconfigure.tasks;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.model.CallToolResult;

/**
 * A task's outcome as the journal's {@code OUTCOME} column keeps it: the result as JSON, or
 * {@code {"error":{"message":...}}} with the failure's message, which is redacted like every {@link McpException}'s.
 */
final class TaskOutcomes {

	private static final JsonMapper MAPPER = JsonMapper.shared();

	private TaskOutcomes() {
	}

	static @Nullable String json(@Nullable CallToolResult result, @Nullable McpException failure) {
		try {
			if (result != null) {
				return MAPPER.writeValueAsString(result);
			}
			if (failure != null) {
				ObjectNode error = MAPPER.createObjectNode();
				error.putObject("error").put("message", failure.getMessage()).put("type", failure.getClass().getSimpleName());
				return MAPPER.writeValueAsString(error);
			}
			return null;
		}
		catch (JacksonException ex) {
			// the outcome is published all the same; the row then says only how the task ended
			return null;
		}
	}

}
