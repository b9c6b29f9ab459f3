package dev.mcpx.client;

import java.time.Instant;

import dev.mcpx.client.model.Implementation;

/**
 * What an operator wants to know about one client, at one moment: whom it talks to, in
 * which era, how its recent exchanges went and how often it recovered. Safe to show: the
 * URL has no credentials or query, errors are messages mcpx wrote, which never hold a
 * session id in full or a header value.
 *
 * @param upstream the upstream name
 * @param url the MCP endpoint without user-info, query or fragment
 * @param era the protocol era, or {@code null} before first contact
 * @param protocolVersion the protocol version, or {@code null} before first contact
 * @param serverInfo the server's self-description, or {@code null} when unknown
 * @param sessionGeneration the legacy session generation (0 before the first session)
 * @param recoveries how many expired sessions were replaced
 * @param reissues how many requests were sent a second time
 * @param lastRecoveryAt when the last session was replaced, or {@code null}
 * @param lastSuccessAt when a request last succeeded, or {@code null}
 * @param lastFailureAt when a request last failed, or {@code null}
 * @param lastError the last failure's type and message, or {@code null}
 * @param lastErrorType the type of the last failure, or {@code null}
 * @param consecutiveFailures failed requests since the last success
 */
public record McpClientStatus(String upstream, String url, ProtocolEra era, String protocolVersion,
		Implementation serverInfo, long sessionGeneration, long recoveries, long reissues, Instant lastRecoveryAt,
		Instant lastSuccessAt, Instant lastFailureAt, String lastError, Class<? extends McpException> lastErrorType,
		int consecutiveFailures) {

	/**
	 * Whether the client has exchanged anything with its upstream yet.
	 * @return {@code false} before first contact
	 */
	public boolean contacted() {
		return this.lastSuccessAt != null || this.lastFailureAt != null;
	}

}
