package dev.mcpx.autoconfigure.actuate;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.model.ProcessStatus;
import dev.mcpx.client.model.Implementation;

/**
 * What the health of an upstream and the {@code mcpx} endpoint show of its client's status:
 * plain strings and numbers only, unknown values left out. Nothing else is shown: no header,
 * no session id, no consecutive-failure bookkeeping.
 */
final class McpClientStatusDetails {

	private McpClientStatusDetails() {
	}

	/**
	 * The details of one status, in a stable order.
	 * @param status the client's status
	 * @return url, era, protocolVersion, serverName, serverVersion, sessionGeneration,
	 * recoveries, reissues, lastRecovery, lastSuccess and lastError, each when known; for a
	 * stdio upstream also command, pid, uptime, restarts, lastExitCode, lastExit and downUntil;
	 * for an upstream that acts for each user userSessions, userSessionsMax, userSessionsOpened
	 * and userSessionsEvicted
	 */
	static Map<String, Object> of(McpClientStatus status) {
		Map<String, Object> details = new LinkedHashMap<>();
		put(details, "url", status.url());
		put(details, "era", (status.era() != null) ? status.era().name().toLowerCase(Locale.ROOT) : null);
		put(details, "protocolVersion", status.protocolVersion());
		Implementation server = status.serverInfo();
		if (server != null) {
			put(details, "serverName", server.name());
			put(details, "serverVersion", server.version());
		}
		details.put("sessionGeneration", status.sessionGeneration());
		details.put("recoveries", status.recoveries());
		details.put("reissues", status.reissues());
		put(details, "lastRecovery", text(status.lastRecoveryAt()));
		put(details, "lastSuccess", text(status.lastSuccessAt()));
		put(details, "lastError", status.lastError());
		McpClientStatus.UserSessions users = status.userSessions();
		if (users != null) {
			// an upstream that acts for each user: its sessions by count, never whose
			details.put("userSessions", users.open());
			details.put("userSessionsMax", users.max());
			details.put("userSessionsOpened", users.opened());
			details.put("userSessionsEvicted", users.evicted());
		}
		ProcessStatus process = status.process();
		if (process != null) {
			// A stdio upstream: its server process, without arguments or environment.
			put(details, "command", process.command());
			put(details, "pid", process.pid());
			if (process.startedAt() != null) {
				details.put("uptime", Duration.between(process.startedAt(), Instant.now()).truncatedTo(ChronoUnit.SECONDS).toString());
			}
			details.put("restarts", process.restarts());
			put(details, "lastExitCode", process.lastExitCode());
			put(details, "lastExit", process.lastExit());
			put(details, "downUntil", text(process.downUntil()));
		}
		return details;
	}

	private static void put(Map<String, Object> details, String key, @Nullable Object value) {
		if (value != null) {
			details.put(key, value);
		}
	}

	/** ISO-8601 text, whatever JSON mapper serializes the details. */
	private static @Nullable String text(@Nullable Instant instant) {
		return (instant != null) ? instant.toString() : null;
	}

}
