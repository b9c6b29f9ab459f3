package dev.mcpx.client;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.ProcessStatus;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.ProtocolEra;

/**
 * What an operator wants to know about one client, at one moment: whom it talks to, in
 * which era, how its recent exchanges went and how often it recovered. Safe to show: the
 * URL has no credentials or query, errors are messages mcpx wrote, which never hold a
 * session id in full or a header value.
 *
 * @param upstream the upstream name
 * @param url the MCP endpoint without user-info, query or fragment; {@code stdio:<command>}
 * for a stdio upstream (without its arguments)
 * @param era the protocol era, absent before first contact
 * @param protocolVersion the protocol version, absent before first contact
 * @param serverInfo the server's self-description, absent when unknown
 * @param sessionGeneration the legacy session generation (0 before the first session)
 * @param recoveries how many expired sessions were replaced
 * @param reissues how many requests were sent a second time
 * @param lastRecoveryAt when the last session was replaced
 * @param lastSuccessAt when a request last succeeded
 * @param lastFailureAt when a request last failed
 * @param lastError the last failure's type and message
 * @param lastErrorType the type of the last failure
 * @param consecutiveFailures failed requests since the last success
 * @param process the server process of a stdio upstream, absent for HTTP
 * @param userSessions the pool of an upstream that acts for each user, by count only; absent
 * for an upstream that acts as the application
 */
public record McpClientStatus(String upstream, String url, @Nullable ProtocolEra era, @Nullable String protocolVersion,
		@Nullable Implementation serverInfo, long sessionGeneration, long recoveries, long reissues, @Nullable Instant lastRecoveryAt,
		@Nullable Instant lastSuccessAt, @Nullable Instant lastFailureAt, @Nullable String lastError, @Nullable Class<? extends McpException> lastErrorType,
		int consecutiveFailures, @Nullable ProcessStatus process, @Nullable UserSessions userSessions) {

	/**
	 * The status of an upstream that acts as the application.
	 * @param upstream the upstream name
	 * @param url the MCP endpoint, or {@code stdio:<command>}
	 * @param era the protocol era
	 * @param protocolVersion the protocol version
	 * @param serverInfo the server's self-description
	 * @param sessionGeneration the legacy session generation
	 * @param recoveries how many expired sessions were replaced
	 * @param reissues how many requests were sent a second time
	 * @param lastRecoveryAt when the last session was replaced
	 * @param lastSuccessAt when a request last succeeded
	 * @param lastFailureAt when a request last failed
	 * @param lastError the last failure's type and message
	 * @param lastErrorType the type of the last failure
	 * @param consecutiveFailures failed requests since the last success
	 * @param process the server process of a stdio upstream, absent for HTTP
	 */
	public McpClientStatus(String upstream, String url, @Nullable ProtocolEra era, @Nullable String protocolVersion,
			@Nullable Implementation serverInfo, long sessionGeneration, long recoveries, long reissues,
			@Nullable Instant lastRecoveryAt, @Nullable Instant lastSuccessAt, @Nullable Instant lastFailureAt,
			@Nullable String lastError, @Nullable Class<? extends McpException> lastErrorType, int consecutiveFailures,
			@Nullable ProcessStatus process) {
		this(upstream, url, era, protocolVersion, serverInfo, sessionGeneration, recoveries, reissues, lastRecoveryAt,
				lastSuccessAt, lastFailureAt, lastError, lastErrorType, consecutiveFailures, process, null);
	}

	/**
	 * The status of an HTTP upstream.
	 * @param upstream the upstream name
	 * @param url the MCP endpoint
	 * @param era the protocol era
	 * @param protocolVersion the protocol version
	 * @param serverInfo the server's self-description
	 * @param sessionGeneration the legacy session generation
	 * @param recoveries how many expired sessions were replaced
	 * @param reissues how many requests were sent a second time
	 * @param lastRecoveryAt when the last session was replaced
	 * @param lastSuccessAt when a request last succeeded
	 * @param lastFailureAt when a request last failed
	 * @param lastError the last failure's type and message
	 * @param lastErrorType the type of the last failure
	 * @param consecutiveFailures failed requests since the last success
	 */
	public McpClientStatus(String upstream, String url, @Nullable ProtocolEra era, @Nullable String protocolVersion,
			@Nullable Implementation serverInfo, long sessionGeneration, long recoveries, long reissues,
			@Nullable Instant lastRecoveryAt, @Nullable Instant lastSuccessAt, @Nullable Instant lastFailureAt,
			@Nullable String lastError, @Nullable Class<? extends McpException> lastErrorType, int consecutiveFailures) {
		this(upstream, url, era, protocolVersion, serverInfo, sessionGeneration, recoveries, reissues, lastRecoveryAt,
				lastSuccessAt, lastFailureAt, lastError, lastErrorType, consecutiveFailures, null, null);
	}

	/**
	 * Whether the client has exchanged anything with its upstream yet.
	 * @return {@code false} before first contact
	 */
	public boolean contacted() {
		return this.lastSuccessAt != null || this.lastFailureAt != null;
	}

	/**
	 * The sessions of an upstream that acts for each user: how many, never whose.
	 * @param open the users with a session (or, in the modern era, credentials) now
	 * @param max how many users may have one at once
	 * @param opened how many were opened since the client was built
	 * @param evicted how many were ended to make room or after being idle
	 */
	public record UserSessions(int open, int max, long opened, long evicted) {

	}

}
