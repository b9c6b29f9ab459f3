package dev.mcpx.client.event;

import java.util.Objects;

/**
 * An event of an upstream that acts for each user, with the identifier of the user whose
 * call caused it. Published in place of the plain event only when the application asked for
 * user identifiers in events ({@code McpUserIdentity#eventId}); otherwise events name no user.
 * The identifier is a salted hash that correlates one user's events, never the user's name,
 * and is never a metrics tag.
 *
 * @param upstream the upstream name
 * @param user the user's identifier: a salted hash
 * @param event the event itself
 */
public record McpUserEvent(String upstream, String user, McpEvent event) implements McpEvent {

	public McpUserEvent {
		Objects.requireNonNull(upstream, "upstream");
		Objects.requireNonNull(user, "user");
		Objects.requireNonNull(event, "event");
		if (event instanceof McpUserEvent) {
			throw new IllegalArgumentException("an McpUserEvent does not wrap another");
		}
	}

}
