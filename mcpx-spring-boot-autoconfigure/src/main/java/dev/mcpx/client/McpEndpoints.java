package dev.mcpx.client;

import java.net.URI;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The endpoints of one upstream served by several interchangeable instances (replicas of
 * one MCP server, as a service registry lists them), for a client built with
 * {@link McpClient#builder(String, McpEndpoints)}. The client asks for them where it
 * chooses an instance, below the session (see {@code docs/architecture.md}, "Replicated
 * upstreams"):
 * <ul>
 * <li>legacy era: a session lives on the instance its {@code initialize} went to. When that
 * instance is no longer {@linkplain #live() live} or refuses a connection, the session counts
 * as expired, and the one renewal its callers share goes to another live instance
 * (2025-11-25 basic/transports §Session Management, rules 3-4);</li>
 * <li>modern era: no session (2026-07-28 basic/lifecycle), so every request goes to the next
 * live instance, round robin, or to the {@linkplain #choose(List) application's choice}; an
 * instance that refuses the connection is passed over for a while, and the request, which it
 * never received, goes to the next one.</li>
 * </ul>
 * Implementations return a snapshot and never block: {@link #live()} is asked on every
 * request.
 */
public interface McpEndpoints {

	/**
	 * The endpoints of the instances live now, each an http or https MCP endpoint URL; an
	 * endpoint that is not a usable URL is left out with a warning.
	 * @return the live endpoints, empty when none is
	 */
	List<URI> live();

	/**
	 * Chooses the endpoint of a request that may go to any instance (a modern request, or
	 * the {@code initialize} of a new legacy session), for example through a load balancer.
	 * @param candidates the live endpoints that have not refused a connection lately, never
	 * empty
	 * @return one of the candidates, or {@code null} to let the client go round robin
	 */
	default @Nullable URI choose(List<URI> candidates) {
		return null;
	}

	/**
	 * A fixed set of endpoints.
	 * @param endpoints the endpoints
	 * @return endpoints that are always these
	 */
	static McpEndpoints of(List<URI> endpoints) {
		List<URI> fixed = List.copyOf(endpoints);
		return () -> fixed;
	}

}
