package dev.mcpx.client.model;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The suggestions of a {@code completion/complete} (2025-11-25 server/utilities/completion).
 *
 * @param values the suggested values, at most 100
 * @param total how many matches exist, absent when the server did not say
 * @param hasMore whether more matches exist than were sent
 */
public record Completion(List<String> values, @Nullable Integer total, boolean hasMore) {

	public Completion {
		values = List.copyOf(values);
	}

}
