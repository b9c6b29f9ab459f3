package dev.mcpx.client.model;

import java.util.List;

/**
 * A prompt template the server offers.
 *
 * @param name the prompt's programmatic name
 * @param title a human-readable title, or {@code null}
 * @param description what the prompt is for, or {@code null}
 * @param arguments the arguments it accepts
 */
public record Prompt(String name, String title, String description, List<PromptArgument> arguments) {

	public Prompt {
		arguments = List.copyOf(arguments);
	}

}
