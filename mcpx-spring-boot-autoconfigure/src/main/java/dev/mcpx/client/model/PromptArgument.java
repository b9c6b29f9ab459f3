package dev.mcpx.client.model;

/**
 * An argument of a prompt template.
 *
 * @param name the argument name
 * @param description what it means, or {@code null}
 * @param required whether the prompt needs it
 */
public record PromptArgument(String name, String description, boolean required) {
}
