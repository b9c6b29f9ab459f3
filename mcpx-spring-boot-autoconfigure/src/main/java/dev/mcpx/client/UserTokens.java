package dev.mcpx.client;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.McpTaskStatus;

/**
 * One client for every user, each call carrying the calling user's own token: the modern
 * era's way (2026-07-28), which has no session to bind to an identity, so nothing but the
 * token differs between users. What is kept per user is their credentials (their token
 * cache), in a bounded pool; for the length of a user's call the client's credentials are
 * that user's, on that thread, for the request and for a refresh after a refusal. A request
 * made outside a user's call carries no token, never another user's.
 * <p>
 * The shared client caches only listings the server marks {@code public} (2026-07-28
 * server/utilities/caching §Cache Scope: a private one MUST NOT be shared across
 * authorization contexts), opens no listen stream, and refuses {@code resources/subscribe}:
 * a stream is one per client and would carry one user's token.
 */
final class UserTokens implements UserCalls {

	private final String upstream;

	private final UserSessionPool<Kept> pool;

	/** The user whose call runs on this thread: their credentials and identifier in events. */
	private final ThreadLocal<@Nullable Kept> bound = new ThreadLocal<>();

	private final McpClient client;

	/**
	 * Creates the users' token caches and the client they share.
	 * @param upstream the upstream name
	 * @param max how many users at once
	 * @param idleTimeout how long an idle user's credentials are kept
	 * @param clock the clock of idleness
	 * @param identity makes a user's credentials and identifier in events
	 * @param client builds the shared client on the credentials it is given, and the
	 * identifier in events of the user whose call runs on the thread
	 */
	UserTokens(String upstream, int max, Duration idleTimeout, Clock clock, McpUserIdentity identity,
			BiFunction<McpCredentials, Supplier<@Nullable String>, McpClient> client) {
		this.upstream = upstream;
		this.pool = new UserSessionPool<>(upstream, max, idleTimeout, clock,
				(user) -> new Kept(identity.credentials(user), identity.eventId(user)));
		this.client = client.apply(new CallersCredentials(), () -> {
			Kept user = this.bound.get();
			return (user != null) ? user.eventId : null;
		});
	}

	@Override
	public Hold hold(String user, String method) {
		if (McpMethods.RESOURCES_SUBSCRIBE.equals(method)) {
			throw new McpException(this.upstream, method + " was not sent: an upstream that acts for each user in the "
					+ "modern era shares one client, whose subscription stream would carry one user's token", null);
		}
		UserSessionPool<Kept>.Member member = this.pool.acquire(user, method);
		Kept previous = this.bound.get();
		this.bound.set(member.value);
		return new Hold(this.client, () -> {
			this.bound.set(previous);
			member.release();
		});
	}

	@Override
	public McpTask task(String user, McpTask task) {
		return new UserTask(user, task);
	}

	@Override
	public List<McpClient> clients() {
		return List.of(this.client);
	}

	@Override
	public McpClientStatus.UserSessions counts() {
		return this.pool.counts();
	}

	@Override
	public void close() {
		try {
			this.client.close();
		}
		finally {
			this.pool.close();
		}
	}

	private <T> T asUser(String user, String method, Supplier<T> call) {
		Hold hold = hold(user, method);
		try {
			return call.get();
		}
		finally {
			hold.release().run();
		}
	}

	/** A user's credentials in the pool; nothing to end when the user leaves it. */
	private record Kept(McpCredentials credentials, @Nullable String eventId) implements AutoCloseable {

		@Override
		public void close() {
		}

	}

	/** The shared client's credentials: those of the user whose call runs on the thread. */
	private final class CallersCredentials implements McpCredentials {

		@Override
		public void apply(HttpHeaders headers) {
			Kept user = UserTokens.this.bound.get();
			if (user != null) {
				user.credentials.apply(headers);
			}
		}

		@Override
		public boolean refresh() {
			Kept user = UserTokens.this.bound.get();
			return user != null && user.credentials.refresh();
		}

		@Override
		public boolean refresh(McpAuthChallenge challenge) {
			Kept user = UserTokens.this.bound.get();
			return user != null && user.credentials.refresh(challenge);
		}

		@Override
		public String toString() {
			return "McpCredentials[per user, " + UserTokens.this.upstream + "]";
		}

	}

	/** A task followed (polled, awaited, cancelled) with the credentials of the user who started it. */
	private final class UserTask implements McpTask {

		private final String user;

		private final McpTask task;

		UserTask(String user, McpTask task) {
			this.user = user;
			this.task = task;
		}

		@Override
		public String id() {
			return this.task.id();
		}

		@Override
		public String upstream() {
			return this.task.upstream();
		}

		@Override
		public String tool() {
			return this.task.tool();
		}

		@Override
		public McpTaskStatus status() {
			return asUser(this.user, McpMethods.TASKS_GET, this.task::status);
		}

		@Override
		public @Nullable String statusMessage() {
			return this.task.statusMessage();
		}

		@Override
		public CallToolResult await(Duration timeout) {
			return asUser(this.user, McpMethods.TASKS_RESULT, () -> this.task.await(timeout));
		}

		/**
		 * Refused: the shared polling threads carry no user, so they could not poll with this
		 * user's token; {@link #await(Duration)} polls on the calling thread, as the user.
		 */
		@Override
		public CompletableFuture<CallToolResult> awaitAsync(Duration timeout) {
			return CompletableFuture.failedFuture(new McpException(UserTokens.this.upstream, "awaitAsync is not "
					+ "available for a task of an upstream that acts for each user in the modern era: its polling "
					+ "threads carry no user's token; await it on the user's thread", null));
		}

		@Override
		public boolean cancel() {
			return asUser(this.user, McpMethods.TASKS_CANCEL, this.task::cancel);
		}

		@Override
		public McpTaskReference reference() {
			return this.task.reference();
		}

		@Override
		public String toString() {
			return this.task.toString();
		}

	}

}
