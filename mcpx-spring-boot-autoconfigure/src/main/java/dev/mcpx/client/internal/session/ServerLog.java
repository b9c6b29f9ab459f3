package dev.mcpx.client.internal.session;

import java.util.Locale;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.Redaction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The server's log messages ({@code notifications/message}, 2025-11-25
 * server/utilities/logging) written to the logger {@code dev.mcpx.upstream.<name>}, at the
 * level they map to, bounded in size and with the client's secrets scrubbed; and the level
 * the application asked for, sent with {@code logging/setLevel} after every handshake, so a
 * recovered session keeps it.
 */
public final class ServerLog implements SessionSetup {

	private static final Log ownLogger = LogFactory.getLog(ServerLog.class);

	/** Characters of one message written; a server's log line is no place for a document. */
	static final int MAX_MESSAGE_CHARS = 4096;

	/** The levels of 2025-11-25 server/utilities/logging §Log Levels, lowest first. */
	private static final String[] LEVELS = { "debug", "info", "notice", "warning", "error", "critical", "alert",
			"emergency" };

	private final String upstream;

	private final Log log;

	private final Redaction redaction;

	private final @Nullable String level;

	/**
	 * Creates the server log of one client.
	 * @param upstream the upstream name
	 * @param redaction scrubs the client's secrets
	 * @param level the level to ask the server for after each handshake, absent for none
	 */
	public ServerLog(String upstream, Redaction redaction, @Nullable String level) {
		this.upstream = upstream;
		this.log = LogFactory.getLog("dev.mcpx.upstream." + upstream);
		this.redaction = redaction;
		this.level = (level != null) ? validLevel(level) : null;
	}

	/**
	 * Checks a level name.
	 * @param level a level of 2025-11-25 server/utilities/logging, any case
	 * @return the level, lower case
	 * @throws IllegalArgumentException for an unknown level
	 */
	public static String validLevel(String level) {
		String lower = level.trim().toLowerCase(Locale.ROOT);
		for (String known : LEVELS) {
			if (known.equals(lower)) {
				return lower;
			}
		}
		throw new IllegalArgumentException("Unknown server log level '" + level
				+ "'; expected one of debug, info, notice, warning, error, critical, alert, emergency");
	}

	/**
	 * Whether a log level is asked of the server.
	 * @return {@code true} when one is configured
	 */
	public boolean setsLevel() {
		return this.level != null;
	}

	/**
	 * Writes one {@code notifications/message}.
	 * @param params its parameters
	 */
	public void write(@Nullable JsonNode params) {
		if (params == null) {
			return;
		}
		String severity = params.path("level").asString("info");
		if (!enabled(severity)) {
			return;
		}
		JsonNode data = params.get("data");
		String text = (data == null) ? "" : data.isString() ? data.asString() : data.toString();
		String logger = params.path("logger").asString(null);
		if (text.length() > MAX_MESSAGE_CHARS) {
			text = text.substring(0, MAX_MESSAGE_CHARS) + "… (" + (text.length() - MAX_MESSAGE_CHARS)
					+ " more characters)";
		}
		String line = "[" + this.upstream + "] " + ((logger != null) ? logger + ": " : "")
				+ this.redaction.scrub(text, java.util.List.of());
		switch (severity) {
			case "debug" -> this.log.debug(line);
			case "info", "notice" -> this.log.info(line);
			case "warning" -> this.log.warn(line);
			default -> this.log.error(line);
		}
	}

	private boolean enabled(String severity) {
		return switch (severity) {
			case "debug" -> this.log.isDebugEnabled();
			case "info", "notice" -> this.log.isInfoEnabled();
			case "warning" -> this.log.isWarnEnabled();
			default -> this.log.isErrorEnabled();
		};
	}

	/**
	 * 2025-11-25 server/utilities/logging §Setting Log Level: sent when the server declared
	 * {@code logging}; a refusal is logged, never a failure of the session.
	 */
	@Override
	public void established(SessionState state, Requests requests) {
		if (this.level == null) {
			return;
		}
		if (state.capabilities() == null || !state.capabilities().has("logging")) {
			ownLogger.debug("[" + this.upstream + "] the server declares no logging; log level " + this.level
					+ " not sent");
			return;
		}
		ObjectNode params = JsonNodeFactory.instance.objectNode();
		params.put("level", this.level);
		try {
			requests.request(McpMethods.LOGGING_SET_LEVEL, params);
		}
		catch (McpException ex) {
			ownLogger.warn("[" + this.upstream + "] logging/setLevel " + this.level + " failed: " + ex.getMessage());
		}
	}

}
