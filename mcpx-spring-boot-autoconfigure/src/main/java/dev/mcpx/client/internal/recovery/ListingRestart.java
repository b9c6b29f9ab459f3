package dev.mcpx.client.internal.recovery;

import dev.mcpx.client.error.McpSessionExpiredException;

/**
 * A later page of a listing met an expired session: its cursor died with the session
 * (2025-11-25 basic/utilities/pagination), so the listing restarts from its first page in
 * the new session, once. Internal: {@link Pagination} catches it; were it to escape, a
 * caller would see the expiry it carries.
 */
final class ListingRestart extends McpSessionExpiredException {

	private final McpSessionExpiredException expiry;

	ListingRestart(McpSessionExpiredException expiry) {
		super(expiry.upstream(), expiry.method(), expiry.generation(), "the listing restarts from its first page",
				expiry);
		this.expiry = expiry;
	}

	McpSessionExpiredException expiry() {
		return this.expiry;
	}

}
