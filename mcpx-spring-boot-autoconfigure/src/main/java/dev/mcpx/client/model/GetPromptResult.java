package dev.mcpx.client.model;

import java.util.List;

/**
 * A prompt rendered by the server.
 *
 * @param description a description, or {@code null}
 * @param messages the messages
 */
public record GetPromptResult(String description, List<PromptMessage> messages) {

	public GetPromptResult {
		messages = List.copyOf(messages);
	}

}
