package dev.mcpx.client.model;

import java.util.List;

import org.jspecify.annotations.Nullable;

import tools.jackson.databind.JsonNode;

/**
 * The result of a {@code tools/call}.
 *
 * @param content the unstructured content blocks
 * @param structuredContent the structured result
 * @param isError whether the tool reported an error (a result, not a protocol failure)
 */
public record CallToolResult(List<Content> content, @Nullable JsonNode structuredContent, boolean isError) {

	public CallToolResult {
		content = List.copyOf(content);
	}

	/**
	 * The text of every text block, joined by newlines.
	 * @return the text, empty when there is none
	 */
	public String text() {
		StringBuilder text = new StringBuilder();
		for (Content block : this.content) {
			if (block instanceof Content.Text t) {
				if (!text.isEmpty()) {
					text.append('\n');
				}
				text.append(t.text());
			}
		}
		return text.toString();
	}

}
