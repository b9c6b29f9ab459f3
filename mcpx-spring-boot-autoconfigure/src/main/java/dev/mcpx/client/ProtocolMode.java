package dev.mcpx.client;

/**
 * Which protocol era a client speaks with its upstream.
 */
public enum ProtocolMode {

	/**
	 * Detect the era on first contact (a modern request first, {@code initialize} when the
	 * server turns out legacy), remember it, and detect again when it later fails.
	 */
	AUTO,

	/**
	 * Always the legacy era: an {@code initialize} handshake and sessions.
	 */
	LEGACY,

	/**
	 * Always the modern era (2026-07-28): stateless requests.
	 */
	MODERN

}
