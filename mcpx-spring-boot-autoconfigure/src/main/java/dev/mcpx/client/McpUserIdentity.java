package dev.mcpx.client;

import org.jspecify.annotations.Nullable;

/**
 * Who a call of a per-user upstream is made for: the user of the calling thread, and the
 * credentials that act for that user. A client built with one keeps a session and
 * credentials per user ({@link McpClientBuilder#userIdentity(McpUserIdentity)}); a call made
 * without a user fails with {@link dev.mcpx.client.error.McpNoUserException}, never with the
 * application's own identity.
 * <p>
 * The client core knows no security framework: the Spring binding implements this on Spring
 * Security's {@code SecurityContext}.
 */
public interface McpUserIdentity {

	/**
	 * The user of the calling thread, as a key that is stable for that user and names no one
	 * (a hash, for example): it keys the user's session and credentials, and may reach logs.
	 * @return the key, or {@code null} when the calling thread acts for no user
	 */
	@Nullable String currentUser();

	/**
	 * Credentials that act for one user, made on the calling thread when the user's session
	 * is opened, and kept as long as it. They are applied on the calling thread of each of the
	 * user's calls, and on the client's own threads (a listen stream, a renewed session), where
	 * they must use what they learned on a calling thread.
	 * @param user the key {@link #currentUser()} returned
	 * @return the user's credentials
	 */
	McpCredentials credentials(String user);

	/**
	 * The user's identifier in the events of their calls, which are then published as
	 * {@link dev.mcpx.client.event.McpUserEvent}. By default there is none, and events name
	 * no user. An identifier must never be the user's name, nor reveal it: a salted hash.
	 * @param user the key {@link #currentUser()} returned
	 * @return the identifier, or {@code null} for events that name no user
	 */
	default @Nullable String eventId(String user) {
		return null;
	}

}
