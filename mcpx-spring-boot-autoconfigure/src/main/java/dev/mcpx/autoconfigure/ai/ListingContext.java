package dev.mcpx.autoconfigure.ai;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;

import org.springframework.security.concurrent.DelegatingSecurityContextCallable;
import org.springframework.util.ClassUtils;

import dev.mcpx.client.model.Tool;

/**
 * What a chat request's thread carries to the threads that list the upstreams' tools for it:
 * Spring Security's {@code SecurityContext}, when Spring Security is on the classpath, so that
 * an upstream that acts for each user lists the tools of the user who made the request (see
 * {@code docs/oauth.md}, "Acting for each user"); nothing otherwise.
 */
final class ListingContext {

	private static final boolean SPRING_SECURITY = ClassUtils.isPresent(
			"org.springframework.security.concurrent.DelegatingSecurityContextCallable",
			ListingContext.class.getClassLoader());

	private ListingContext() {
	}

	/**
	 * Wraps a listing so that it runs with the calling thread's context.
	 * @return the wrapping, the identity without Spring Security
	 */
	static UnaryOperator<Callable<List<Tool>>> ofCallingThread() {
		return SPRING_SECURITY ? SecurityContextOfCallingThread::wrap : UnaryOperator.identity();
	}

	/** Loaded only with Spring Security on the classpath. */
	private static final class SecurityContextOfCallingThread {

		static Callable<List<Tool>> wrap(Callable<List<Tool>> listing) {
			// the context of the thread that calls wrap: the chat request's
			return new DelegatingSecurityContextCallable<>(listing);
		}

	}

}
