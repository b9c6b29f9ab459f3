package dev.mcpx.client.model;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A prompt template the server offers.
 *
 * @param name the prompt's programmatic name
 * @param title a human-readable title
 * @param description what the prompt is for
 * @param arguments the arguments it accepts
 */
public record Prompt(String name, @Nullable String title, @Nullable String description, List<PromptArgument> arguments) {

	public Prompt {
		arguments = List.copyOf(arguments);
	}

}
