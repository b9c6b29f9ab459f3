package dev.mcpx.client.model;

import tools.jackson.databind.JsonNode;

/**
 * A tool as the server listed it.
 *
 * @param name the tool's programmatic name
 * @param title a human-readable title, or {@code null}
 * @param description what the tool does, or {@code null}
 * @param inputSchema the JSON Schema of the arguments, exactly as the server sent it
 * @param outputSchema the JSON Schema of structured results, or {@code null}
 * @param annotations the server's hints about the tool's behaviour; never {@code null}
 */
public record Tool(String name, String title, String description, JsonNode inputSchema, JsonNode outputSchema,
		ToolAnnotations annotations) {

	public Tool {
		annotations = (annotations != null) ? annotations : ToolAnnotations.NONE;
	}

}
