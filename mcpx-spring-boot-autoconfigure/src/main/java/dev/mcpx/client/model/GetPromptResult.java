package dev.mcpx.client.model;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A prompt rendered by the server.
 *
 * @param description a description
 * @param messages the messages
 */
public record GetPromptResult(@Nullable String description, List<PromptMessage> messages) {

	public GetPromptResult {
		messages = List.copyOf(messages);
	}

}
