package dev.mcpx.client;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A client per user, in a bounded pool: the legacy era's way, since a server binds a session
 * to the identity that opened it (2025-11-25 basic/authorization §Token Handling; basic/
 * transports §Session Management). Each user's client has its own session, generation,
 * single-flight renewal and credentials.
 */
final class UserSessions implements UserCalls {

	private final UserSessionPool<McpClient> pool;

	/**
	 * Creates the users' clients.
	 * @param upstream the upstream name
	 * @param max how many users at once
	 * @param idleTimeout how long an idle user's client is kept
	 * @param clock the clock of idleness
	 * @param clients opens a user's client
	 */
	UserSessions(String upstream, int max, Duration idleTimeout, Clock clock, Function<String, McpClient> clients) {
		this.pool = new UserSessionPool<>(upstream, max, idleTimeout, clock, clients);
	}

	@Override
	public Hold hold(String user, String method) {
		UserSessionPool<McpClient>.Member member = this.pool.acquire(user, method);
		return new Hold(member.value, member::release);
	}

	@Override
	public List<McpClient> clients() {
		return this.pool.values();
	}

	@Override
	public McpClientStatus.UserSessions counts() {
		return this.pool.counts();
	}

	@Override
	public void close() {
		this.pool.close();
	}

}
