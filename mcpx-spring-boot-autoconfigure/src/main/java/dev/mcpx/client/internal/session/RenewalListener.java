package dev.mcpx.client.internal.session;

import java.time.Duration;

import dev.mcpx.client.error.McpException;

/**
 * Hears what happens when a dead session is replaced, from the one caller that replaces
 * it.
 */
public interface RenewalListener {

	/** Hears nothing. */
	RenewalListener NONE = new RenewalListener() {
	};

	/**
	 * The session is known dead; a handshake is about to start.
	 * @param dead the dead session
	 */
	default void expired(SessionState dead) {
	}

	/**
	 * A new session replaced the dead one.
	 * @param dead the dead session
	 * @param next the new session
	 * @param took how long the handshake took
	 */
	default void renewed(SessionState dead, SessionState next, Duration took) {
	}

	/**
	 * The handshake failed.
	 * @param dead the dead session, still current
	 * @param failure why
	 */
	default void failed(SessionState dead, McpException failure) {
	}

}
