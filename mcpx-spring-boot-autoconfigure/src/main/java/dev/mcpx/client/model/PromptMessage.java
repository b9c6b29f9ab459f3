package dev.mcpx.client.model;

/**
 * One message of a rendered prompt.
 *
 * @param role {@code user} or {@code assistant}
 * @param content the message content
 */
public record PromptMessage(String role, Content content) {
}
