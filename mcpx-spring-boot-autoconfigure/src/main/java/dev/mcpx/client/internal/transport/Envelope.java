package dev.mcpx.client.internal.transport;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What one message carries besides its JSON: the session it belongs to and the metadata
 * the era mirrors out of the body. Streamable HTTP sends these as headers; a stdio
 * transport needs only the generation, to refuse a message of a session whose process is
 * gone.
 *
 * @param method the JSON-RPC method, for messages about the exchange
 * @param generation the session generation the message belongs to
 * @param sessionId the {@code MCP-Session-Id} of a legacy session
 * @param protocolVersion the {@code MCP-Protocol-Version} to send (2025-11-25
 * basic/transports §Protocol Version Header)
 * @param mirrored metadata mirrored from the body, by name (2026-07-28
 * transports/streamable-http §Request Metadata: {@code Mcp-Method}, {@code Mcp-Name},
 * {@code Mcp-Param-*})
 */
public record Envelope(String method, long generation, @Nullable String sessionId, @Nullable String protocolVersion,
		Map<String, String> mirrored) {

	public Envelope {
		mirrored = Map.copyOf(mirrored);
	}

	/**
	 * The envelope of a message outside any session: a first handshake or discovery.
	 * @param method the JSON-RPC method
	 * @param generation the session generation it opens
	 * @return the envelope
	 */
	public static Envelope unsessioned(String method, long generation) {
		return new Envelope(method, generation, null, null, Map.of());
	}

	/**
	 * The same envelope for another message of the session.
	 * @param otherMethod the other message's method
	 * @return the envelope, without the mirrored metadata of this one
	 */
	public Envelope forMethod(String otherMethod) {
		return new Envelope(otherMethod, this.generation, this.sessionId, this.protocolVersion, Map.of());
	}

}
