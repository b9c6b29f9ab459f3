package dev.mcpx.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.mcpx.client.error.McpException;

/**
 * The clients of an upstream that acts for each user, one per user, in a bounded pool: at
 * most {@code max} users at once, and a user idle for {@code idleTimeout} is let go. A
 * client that leaves the pool is closed, which ends its legacy session with {@code DELETE}
 * (2025-11-25 basic/transports §Session Management, rule 5). A client is never closed under
 * a call: a user with a call in flight is not evicted, and when every user in a full pool has
 * one, a new user's call is refused rather than waiting for room.
 * <p>
 * Each user's client has its own session, generation and single-flight renewal, and its own
 * credentials, so one user's expiry, refresh or revoked grant never reaches another's calls.
 */
final class UserSessionPool implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(UserSessionPool.class);

	private final String upstream;

	private final int max;

	private final Duration idleTimeout;

	private final Clock clock;

	private final Function<String, McpClient> factory;

	private final ReentrantLock lock = new ReentrantLock();

	/** In order of last use, least recent first. */
	private final LinkedHashMap<String, Member> members = new LinkedHashMap<>(16, 0.75f, true);

	private long opened;

	private long evicted;

	private boolean closed;

	UserSessionPool(String upstream, int max, Duration idleTimeout, Clock clock, Function<String, McpClient> factory) {
		this.upstream = upstream;
		this.max = max;
		this.idleTimeout = idleTimeout;
		this.clock = clock;
		this.factory = factory;
	}

	/**
	 * The user's client, opened if the user has none; held until {@link Member#release()}.
	 * @param user the user's key
	 * @param method the method about to be called, for a refusal's message
	 * @return the user's member of the pool, in use
	 */
	Member acquire(String user, String method) {
		List<McpClient> ended = new ArrayList<>();
		Member member;
		this.lock.lock();
		try {
			if (this.closed) {
				throw new McpException(this.upstream, "the client is closed", null);
			}
			Instant now = this.clock.instant();
			expireIdle(now, ended);
			member = this.members.get(user);
			if (member == null) {
				if (this.members.size() >= this.max && !evictLeastRecentlyUsed(ended)) {
					throw new McpException(this.upstream, "all " + this.max + " user sessions have a call in flight; "
							+ method + " for another user was not sent (raise oauth.user-sessions.max)", null);
				}
				member = new Member(this.factory.apply(user));
				this.members.put(user, member);
				this.opened++;
			}
			member.inFlight++;
		}
		finally {
			this.lock.unlock();
		}
		endAll(ended);
		return member;
	}

	/** Lets go of users idle for longer than the idle timeout, least recently used first. */
	private void expireIdle(Instant now, List<McpClient> ended) {
		Iterator<Member> members = this.members.values().iterator();
		while (members.hasNext()) {
			Member member = members.next();
			if (member.inFlight > 0) {
				continue;
			}
			if (!member.lastUsed.plus(this.idleTimeout).isAfter(now)) {
				members.remove();
				ended.add(member.client);
				this.evicted++;
			}
		}
	}

	private boolean evictLeastRecentlyUsed(List<McpClient> ended) {
		Iterator<Member> members = this.members.values().iterator();
		while (members.hasNext()) {
			Member member = members.next();
			if (member.inFlight == 0) {
				members.remove();
				ended.add(member.client);
				this.evicted++;
				return true;
			}
		}
		return false;
	}

	/** Outside the lock: ending a legacy session is a request (bounded, errors ignored). */
	private void endAll(List<McpClient> ended) {
		for (McpClient client : ended) {
			try {
				client.close();
			}
			catch (RuntimeException ex) {
				logger.debug("[" + this.upstream + "] closing an evicted user session failed: " + ex);
			}
		}
	}

	/**
	 * The clients in the pool now, for what concerns them all.
	 * @return the clients
	 */
	List<McpClient> clients() {
		this.lock.lock();
		try {
			List<McpClient> clients = new ArrayList<>(this.members.size());
			this.members.values().forEach((member) -> clients.add(member.client));
			return clients;
		}
		finally {
			this.lock.unlock();
		}
	}

	McpClientStatus.UserSessions counts() {
		this.lock.lock();
		try {
			return new McpClientStatus.UserSessions(this.members.size(), this.max, this.opened, this.evicted);
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void close() {
		List<McpClient> ended;
		this.lock.lock();
		try {
			this.closed = true;
			ended = new ArrayList<>(this.members.size());
			for (Map.Entry<String, Member> entry : this.members.entrySet()) {
				ended.add(entry.getValue().client);
			}
			this.members.clear();
		}
		finally {
			this.lock.unlock();
		}
		endAll(ended);
	}

	/** One user's client in the pool, with what decides when it may leave. */
	final class Member {

		final McpClient client;

		/** Guarded by the pool's lock. */
		int inFlight;

		/** Guarded by the pool's lock. */
		Instant lastUsed;

		private Member(McpClient client) {
			this.client = client;
			this.lastUsed = UserSessionPool.this.clock.instant();
		}

		/** The call is over: the user's client may leave the pool when idle. */
		void release() {
			UserSessionPool.this.lock.lock();
			try {
				this.inFlight--;
				this.lastUsed = UserSessionPool.this.clock.instant();
			}
			finally {
				UserSessionPool.this.lock.unlock();
			}
		}

	}

}
