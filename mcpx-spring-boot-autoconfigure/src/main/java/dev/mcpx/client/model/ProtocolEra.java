package dev.mcpx.client.model;

/**
 * The two shapes of the MCP protocol a client can speak.
 */
public enum ProtocolEra {

	/**
	 * Revisions 2025-03-26, 2025-06-18 and 2025-11-25: an {@code initialize} handshake and
	 * an {@code MCP-Session-Id}.
	 */
	LEGACY,

	/**
	 * Revision 2026-07-28: stateless requests that each carry their own protocol metadata.
	 */
	MODERN

}
