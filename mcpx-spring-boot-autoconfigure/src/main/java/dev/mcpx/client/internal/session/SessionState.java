package dev.mcpx.client.internal.session;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;

/**
 * What a client has established with its upstream: for the legacy era, one session as the
 * handshake established it; for the modern era, the protocol version in use. Immutable: a
 * new session is a new state with a higher generation.
 *
 * @param era the protocol era
 * @param generation 1 for the first session, one more for each re-initialize
 * @param sessionId the {@code MCP-Session-Id} the server assigned, absent when it
 * assigned none (always for the modern era)
 * @param protocolVersion the negotiated protocol revision
 * @param serverInfo the server's self-description, absent when unknown
 * @param capabilities the server's declared capabilities, absent when unknown
 */
public record SessionState(ProtocolEra era, long generation, @Nullable String sessionId, String protocolVersion, @Nullable Implementation serverInfo,
		@Nullable JsonNode capabilities) {

	/**
	 * Whether requests of this session carry an {@code MCP-Session-Id}.
	 * @return {@code true} when the server assigned a session id
	 */
	public boolean hasSessionId() {
		return this.sessionId != null;
	}

	/**
	 * A form of the session id safe for logs and events: its first four characters.
	 * @return the redacted id, or {@code "none"}
	 */
	public String redactedSessionId() {
		return Redaction.sessionId(this.sessionId);
	}

	@Override
	public String toString() {
		return "SessionState[era=" + this.era + ", generation=" + this.generation + ", sessionId=" + redactedSessionId()
				+ ", protocolVersion=" + this.protocolVersion + ", serverInfo=" + this.serverInfo + "]";
	}

}
