package dev.mcpx.client.internal.session;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.protocol.McpMethods;
import tools.jackson.databind.JsonNode;

/**
 * What the client API does differently in one era, asked of the session rather than
 * decided by {@code if (era ...)} above it.
 */
public interface EraTraits {

	/**
	 * The method that goes on the wire for an API method.
	 * @param method the API's method, for example {@code ping}
	 * @return the wire method (a modern server has no {@code ping}; {@code server/discover}
	 * is its cheapest request)
	 */
	String wireMethod(String method);

	/**
	 * Whether the client may use a server capability (2025-11-25 basic/lifecycle
	 * §Operation: only capabilities the server declared).
	 * @param on the state
	 * @param capability for example {@code tools}
	 * @return {@code true} when it may
	 */
	boolean mayUse(SessionState on, String capability);

	/**
	 * Whether tool calls mirror their arguments into the transport (2026-07-28
	 * transports/streamable-http §Schema Extension: {@code x-mcp-header}); a tool whose
	 * declarations are invalid is then left out of listings and never called.
	 * @return {@code true} in the modern era
	 */
	boolean mirrorsToolArguments();

	/**
	 * How long a listing page stays fresh.
	 * @param page the page's result
	 * @return the page's freshness, absent for the catalogue's default
	 */
	@Nullable Duration freshness(JsonNode page);

	/** The legacy era: capabilities from {@code initialize}, no freshness in results. */
	EraTraits LEGACY = new EraTraits() {

		@Override
		public String wireMethod(String method) {
			return method;
		}

		@Override
		public boolean mayUse(SessionState on, String capability) {
			return on.capabilities() != null && on.capabilities().has(capability);
		}

		@Override
		public boolean mirrorsToolArguments() {
			return false;
		}

		@Override
		public @Nullable Duration freshness(JsonNode page) {
			return null;
		}

	};

	/**
	 * The modern era: capabilities are declared only through an optional discovery;
	 * results carry {@code ttlMs}, 0 when absent or negative (2026-07-28
	 * server/utilities/caching §Time-to-Live).
	 */
	EraTraits MODERN = new EraTraits() {

		@Override
		public String wireMethod(String method) {
			return McpMethods.PING.equals(method) ? McpMethods.SERVER_DISCOVER : method;
		}

		@Override
		public boolean mayUse(SessionState on, String capability) {
			return true;
		}

		@Override
		public boolean mirrorsToolArguments() {
			return true;
		}

		@Override
		public Duration freshness(JsonNode page) {
			JsonNode ttlMs = page.get("ttlMs");
			return Duration.ofMillis((ttlMs != null && ttlMs.isIntegralNumber()) ? Math.max(0, ttlMs.longValue()) : 0);
		}

	};

}
