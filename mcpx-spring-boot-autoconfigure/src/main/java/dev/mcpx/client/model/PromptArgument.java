package dev.mcpx.client.model;

import org.jspecify.annotations.Nullable;

/**
 * An argument of a prompt template.
 *
 * @param name the argument name
 * @param description what it means
 * @param required whether the prompt needs it
 */
public record PromptArgument(String name, @Nullable String description, boolean required) {
}
