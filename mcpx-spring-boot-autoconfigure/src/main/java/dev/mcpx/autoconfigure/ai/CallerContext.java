package dev.mcpx.autoconfigure.ai;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;

/**
 * The user of the chat request that asked {@link McpxToolCallbackProvider} for its callbacks,
 * carried to whichever thread runs the tool calls. Spring AI asks the provider on the
 * request's own thread, then may run the calls elsewhere: {@code ChatClient.stream()}'s tool
 * loop ({@code ToolCallingAdvisor}) runs them on Reactor's {@code boundedElastic} threads,
 * which hold no {@code SecurityContext}. A call on such a thread runs with the request's
 * user, set for the call only and removed after it, so no pooled thread keeps a user. A call
 * on a thread with a user of its own (the blocking {@code ChatClient.call()}) runs as it is;
 * if that user is not the request's, the call is refused rather than made as either (see
 * {@code docs/oauth.md}, "Acting for each user").
 */
final class CallerContext {

	private static final boolean SPRING_SECURITY = ClassUtils.isPresent(
			"org.springframework.security.core.context.SecurityContextHolder", CallerContext.class.getClassLoader());

	/** No user to carry: calls run with their own thread's context. */
	static final CallerContext NONE = new CallerContext(null);

	/** The request's {@code Authentication}, typed loosely so that this class loads without Spring Security. */
	private final @Nullable Object user;

	private CallerContext(@Nullable Object user) {
		this.user = user;
	}

	/**
	 * The user of the calling thread, if it acts for one.
	 * @return the context to carry, {@link #NONE} without a user or without Spring Security
	 */
	static CallerContext ofCallingThread() {
		if (!SPRING_SECURITY) {
			return NONE;
		}
		Object user = SecurityContexts.requestUser();
		return (user != null) ? new CallerContext(user) : NONE;
	}

	/**
	 * Whether this context carries a user.
	 * @return {@code true} with a user
	 */
	boolean hasUser() {
		return this.user != null;
	}

	/**
	 * Runs one tool call with this context's user.
	 * @param tool the tool's name, for the refusal
	 * @param call the call
	 * @return what the call returned
	 */
	String run(String tool, Supplier<String> call) {
		Object carried = this.user;
		return (carried != null) ? SecurityContexts.runAs(carried, tool, call) : call.get();
	}

	/** Loaded only with Spring Security on the classpath. */
	private static final class SecurityContexts {

		/** The calling thread's user, typed loosely for {@link CallerContext}, which must load without Spring Security. */
		static @Nullable Object requestUser() {
			return currentUser();
		}

		private static @Nullable Authentication currentUser() {
			return user(SecurityContextHolder.getContext().getAuthentication());
		}

		/** A user as mcpx's per-user identity counts one: authenticated and not anonymous. */
		private static @Nullable Authentication user(@Nullable Authentication authentication) {
			if (authentication == null || !authentication.isAuthenticated()
					|| authentication instanceof AnonymousAuthenticationToken) {
				return null;
			}
			return authentication;
		}

		static String runAs(Object carried, String tool, Supplier<String> call) {
			Authentication requestUser = (Authentication) carried;
			Authentication threadUser = currentUser();
			if (threadUser != null) {
				if (!threadUser.getName().equals(requestUser.getName())) {
					// no user's name in the message: it may reach a log
					throw new IllegalStateException("Tool '" + tool + "' was not called: it was handed out for the chat "
							+ "request of another user than the one its thread acts for. The tools of "
							+ "McpxToolCallbackProvider belong to the chat request that asked for them: give ChatClient "
							+ "the provider, not an array of its tools kept from an earlier request");
				}
				return call.get();
			}
			SecurityContext previous = SecurityContextHolder.getContext();
			// a context of its own: the request's thread may clear or change its context meanwhile
			SecurityContext context = SecurityContextHolder.createEmptyContext();
			context.setAuthentication(requestUser);
			SecurityContextHolder.setContext(context);
			try {
				return call.get();
			}
			finally {
				if (SecurityContextHolder.createEmptyContext().equals(previous)) {
					SecurityContextHolder.clearContext();
				}
				else {
					SecurityContextHolder.setContext(previous);
				}
			}
		}

	}

}
