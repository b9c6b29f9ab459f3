package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * A tool as the server listed it.
 *
 * @param name the tool's programmatic name
 * @param title a human-readable title
 * @param description what the tool does
 * @param inputSchema the JSON Schema of the arguments, exactly as the server sent it
 * @param outputSchema the JSON Schema of structured results
 * @param annotations the server's hints about the tool's behaviour; never {@code null}
 * @param taskSupport whether the tool may be called as a task (2025-11-25
 * basic/utilities/tasks §Tool-Level Negotiation); never {@code null}
 */
public record Tool(String name, @Nullable String title, @Nullable String description, JsonNode inputSchema, @Nullable JsonNode outputSchema,
		ToolAnnotations annotations, TaskSupport taskSupport) {

	public Tool {
		annotations = (annotations != null) ? annotations : ToolAnnotations.NONE;
		taskSupport = (taskSupport != null) ? taskSupport : TaskSupport.FORBIDDEN;
	}

	/**
	 * A tool that says nothing of tasks: {@link TaskSupport#FORBIDDEN}.
	 * @param name the tool's programmatic name
	 * @param title a human-readable title
	 * @param description what the tool does
	 * @param inputSchema the JSON Schema of the arguments
	 * @param outputSchema the JSON Schema of structured results
	 * @param annotations the server's hints about the tool's behaviour
	 */
	public Tool(String name, @Nullable String title, @Nullable String description, JsonNode inputSchema,
			@Nullable JsonNode outputSchema, ToolAnnotations annotations) {
		this(name, title, description, inputSchema, outputSchema, annotations, TaskSupport.FORBIDDEN);
	}

}
