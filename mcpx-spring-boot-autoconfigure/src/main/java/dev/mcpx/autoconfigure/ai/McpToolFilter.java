package dev.mcpx.autoconfigure.ai;

import dev.mcpx.client.model.Tool;

/**
 * Decides whether a Spring AI model sees a tool, after the {@code spring-ai.expose},
 * {@code include} and {@code exclude} properties of its upstream. Define one as a bean for
 * rules those properties cannot express.
 */
@FunctionalInterface
public interface McpToolFilter {

	/**
	 * Whether the model may see and call the tool.
	 * @param upstream the upstream name, as declared under {@code mcpx.clients.<name>}
	 * @param tool the tool as the server listed it, annotations included
	 * @return {@code true} to offer the tool to the model
	 */
	boolean test(String upstream, Tool tool);

}
