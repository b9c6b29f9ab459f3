package dev.mcpx.client.model;

import java.util.List;

/**
 * The result of a {@code resources/read}.
 *
 * @param contents the contents, one per resource read
 */
public record ReadResourceResult(List<ResourceContents> contents) {

	public ReadResourceResult {
		contents = List.copyOf(contents);
	}

}
