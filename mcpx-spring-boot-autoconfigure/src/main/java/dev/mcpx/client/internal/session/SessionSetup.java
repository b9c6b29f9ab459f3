package dev.mcpx.client.internal.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import tools.jackson.databind.JsonNode;

/**
 * What a client re-establishes in every new legacy session, because the server keeps it as
 * state of the session: the log level it asked for, the resources it subscribed to. Run at
 * the end of every handshake (the first one, a renewal after expiry, a restarted stdio
 * process, an open after the era was detected again), which is the one place every legacy
 * session begins (docs/architecture.md, "Extension points").
 */
@FunctionalInterface
public interface SessionSetup {

	/** Re-establishes nothing. */
	SessionSetup NONE = (state, requests) -> {
	};

	/**
	 * Called on the handshaking thread once the session is initialized, before any caller
	 * uses it. Must not throw; slow work belongs on another thread.
	 * @param state the new session
	 * @param requests sends a request in that session, one attempt
	 */
	void established(SessionState state, Requests requests);

	/**
	 * Several setups, in order.
	 * @param setups the setups
	 * @return one setup running each
	 */
	static SessionSetup of(List<SessionSetup> setups) {
		List<SessionSetup> all = List.copyOf(setups);
		return (state, requests) -> all.forEach((setup) -> setup.established(state, requests));
	}

	/**
	 * Sends requests in one session.
	 */
	@FunctionalInterface
	interface Requests {

		/**
		 * Sends one request in the session, one attempt, bounded by the request timeout.
		 * @param method the method
		 * @param params the parameters
		 * @return the result
		 * @throws McpException on any failure
		 */
		JsonNode request(String method, @Nullable JsonNode params);

	}

}
