package dev.mcpx.client.session;

import dev.mcpx.client.model.Implementation;
import tools.jackson.databind.JsonNode;

/**
 * One legacy session as the handshake established it. Immutable: a new session is a new
 * state with a higher generation.
 *
 * @param generation 1 for the first session, one more for each re-initialize
 * @param sessionId the {@code MCP-Session-Id} the server assigned, or {@code null} when it
 * assigned none
 * @param protocolVersion the negotiated protocol revision
 * @param serverInfo the server's self-description
 * @param capabilities the server's declared capabilities
 */
public record SessionState(long generation, String sessionId, String protocolVersion, Implementation serverInfo,
		JsonNode capabilities) {

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
		return "SessionState[generation=" + this.generation + ", sessionId=" + redactedSessionId()
				+ ", protocolVersion=" + this.protocolVersion + ", serverInfo=" + this.serverInfo + "]";
	}

}
