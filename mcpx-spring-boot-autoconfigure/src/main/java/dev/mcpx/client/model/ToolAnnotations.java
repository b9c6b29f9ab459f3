package dev.mcpx.client.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import org.jspecify.annotations.Nullable;

/**
 * The behavioural hints a server declares for a tool. Each hint is {@code null} when the
 * server did not state it. Hints are only as trustworthy as the server that sent them.
 *
 * @param title a human-readable title
 * @param readOnlyHint whether the tool does not modify its environment
 * @param destructiveHint whether the tool may perform destructive updates
 * @param idempotentHint whether calling the tool again with the same arguments has no
 * additional effect
 * @param openWorldHint whether the tool interacts with an open world of external entities
 */
public record ToolAnnotations(@Nullable String title, @Nullable Boolean readOnlyHint, @Nullable Boolean destructiveHint,
		@Nullable Boolean idempotentHint, @Nullable Boolean openWorldHint) {

	/** No annotations at all. */
	public static final ToolAnnotations NONE = new ToolAnnotations(null, null, null, null, null);

	/**
	 * Whether the server declared the tool read-only.
	 * @return {@code true} only for an explicit {@code readOnlyHint: true}
	 */
	@JsonIgnore
	public boolean isReadOnly() {
		return Boolean.TRUE.equals(this.readOnlyHint);
	}

	/**
	 * Whether the server declared the tool idempotent.
	 * @return {@code true} only for an explicit {@code idempotentHint: true}
	 */
	@JsonIgnore
	public boolean isIdempotent() {
		return Boolean.TRUE.equals(this.idempotentHint);
	}

}
