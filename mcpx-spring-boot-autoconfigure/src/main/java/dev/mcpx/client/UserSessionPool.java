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
 * What an upstream that acts for each user keeps per user, in a bounded pool: at most
 * {@code max} users at once, and a user idle for {@code idleTimeout} is let go. In the legacy
 * era that is a client per user; one that leaves the pool is closed, which ends its session
 * with {@code DELETE} (2025-11-25 basic/transports §Session Management, rule 5). In the
 * modern era it is the user's credentials (their token cache) over one client. Nothing is
 * closed under a call: a user with a call in flight is not evicted, and when every user in a
 * full pool has one, a new user's call is refused rather than waiting for room.
 * <p>
 * Each user's entry has its own credentials (and, in the legacy era, its own session,
 * generation and single-flight renewal), so one user's expiry, refresh or revoked grant never
 * reaches another's calls.
 *
 * @param <T> what is kept per user, closed when the user leaves the pool
 */
final class UserSessionPool<T extends AutoCloseable> implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(UserSessionPool.class);

	private final String upstream;

	private final int max;

	private final Duration idleTimeout;

	private final Clock clock;

	private final Function<String, T> factory;

	private final ReentrantLock lock = new ReentrantLock();

	/** In order of last use, least recent first. */
	private final LinkedHashMap<String, Member> members = new LinkedHashMap<>(16, 0.75f, true);

	private long opened;

	private long evicted;

	private boolean closed;

	UserSessionPool(String upstream, int max, Duration idleTimeout, Clock clock, Function<String, T> factory) {
		this.upstream = upstream;
		this.max = max;
		this.idleTimeout = idleTimeout;
		this.clock = clock;
		this.factory = factory;
	}

	/**
	 * The user's entry, made if the user has none; held until {@link Member#release()}.
	 * @param user the user's key
	 * @param method the method about to be called, for a refusal's message
	 * @return the user's member of the pool, in use
	 */
	Member acquire(String user, String method) {
		List<T> ended = new ArrayList<>();
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
	private void expireIdle(Instant now, List<T> ended) {
		Iterator<Member> members = this.members.values().iterator();
		while (members.hasNext()) {
			Member member = members.next();
			if (member.inFlight > 0) {
				continue;
			}
			if (!member.lastUsed.plus(this.idleTimeout).isAfter(now)) {
				members.remove();
				ended.add(member.value);
				this.evicted++;
			}
		}
	}

	private boolean evictLeastRecentlyUsed(List<T> ended) {
		Iterator<Member> members = this.members.values().iterator();
		while (members.hasNext()) {
			Member member = members.next();
			if (member.inFlight == 0) {
				members.remove();
				ended.add(member.value);
				this.evicted++;
				return true;
			}
		}
		return false;
	}

	/** Outside the lock: ending a legacy session is a request (bounded, errors ignored). */
	private void endAll(List<T> ended) {
		for (T value : ended) {
			try {
				value.close();
			}
			catch (Exception ex) {
				logger.debug("[" + this.upstream + "] closing an evicted user session failed: " + ex);
			}
		}
	}

	/**
	 * What the pool holds now, for what concerns every user.
	 * @return each user's entry
	 */
	List<T> values() {
		this.lock.lock();
		try {
			List<T> values = new ArrayList<>(this.members.size());
			this.members.values().forEach((member) -> values.add(member.value));
			return values;
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
		List<T> ended;
		this.lock.lock();
		try {
			this.closed = true;
			ended = new ArrayList<>(this.members.size());
			for (Map.Entry<String, Member> entry : this.members.entrySet()) {
				ended.add(entry.getValue().value);
			}
			this.members.clear();
		}
		finally {
			this.lock.unlock();
		}
		endAll(ended);
	}

	/** One user's entry in the pool, with what decides when it may leave. */
	final class Member {

		final T value;

		/** Guarded by the pool's lock. */
		int inFlight;

		/** Guarded by the pool's lock. */
		Instant lastUsed;

		private Member(T value) {
			this.value = value;
			this.lastUsed = UserSessionPool.this.clock.instant();
		}

		/** The call is over: the user's entry may leave the pool when idle. */
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
