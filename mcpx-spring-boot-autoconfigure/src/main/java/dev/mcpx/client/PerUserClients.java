package dev.mcpx.client;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.event.McpUserEvent;
import dev.mcpx.client.internal.assembly.ClientAssembly;
import dev.mcpx.client.internal.assembly.ClientSettings;

/**
 * Assembles the client of an upstream that acts for each user (docs/architecture.md,
 * "Per-user upstreams"): in the modern era one client whose calls carry each user's token
 * ({@link UserTokens}); otherwise a client per user ({@link UserSessions}), each assembled
 * from the same settled settings with that user's credentials. In {@link ProtocolMode#AUTO}
 * the era is not known before the first contact, so each user gets a client of their own,
 * which suits either era. The application's event listeners get a user's events as
 * {@link McpUserEvent} when the identity gives users an identifier in events
 * ({@link McpUserIdentity#eventId(String)}), and as they are otherwise.
 */
final class PerUserClients {

	private PerUserClients() {
	}

	/**
	 * Assembles the client.
	 * @param builder what the builder holds
	 * @param shared the settled settings every user shares: all but the credentials
	 * @param identity who each call is for, and their credentials
	 * @return the client
	 */
	static McpClient assemble(BuilderState builder, ClientSettings shared, McpUserIdentity identity) {
		URI resource = Objects.requireNonNull(builder.url, "url");
		@Nullable McpTaskStore store = builder.taskStore;
		UserCalls users;
		if (builder.protocol == ProtocolMode.MODERN) {
			users = new UserTokens(builder.name, builder.maxUserSessions, builder.userSessionIdleTimeout,
					builder.clock, identity, (callersCredentials, callersEventId) -> {
						DefaultMcpClient client = new DefaultMcpClient(ClientAssembly.assemble(BuilderSettings
							.sharedByUsers(shared, callersCredentials, resource, tagged(shared, callersEventId))), store);
						client.shareAmongUsers();
						return client;
					});
		}
		else {
			users = new UserSessions(builder.name, builder.maxUserSessions, builder.userSessionIdleTimeout,
					builder.clock, (user) -> {
						String eventId = identity.eventId(user);
						return new DefaultMcpClient(ClientAssembly.assemble(BuilderSettings.forUser(shared,
								identity.credentials(user), resource, tagged(shared, () -> eventId))), store);
					});
		}
		return new PerUserMcpClient(builder.name, shared.wire().shown(), identity, users);
	}

	/** The application's listeners, given a user's events with that user's identifier when there is one. */
	private static List<McpEventListener> tagged(ClientSettings shared, Supplier<@Nullable String> eventId) {
		return shared.eventListeners().stream().<McpEventListener>map((listener) -> (event) -> {
			String user = eventId.get();
			listener.onEvent((user != null) ? new McpUserEvent(event.upstream(), user, event) : event);
		}).toList();
	}

}
