package dev.mcpx.client.internal.session;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpJsonRpcException;

/**
 * What a failed exchange says about the era of the server that answered it (2026-07-28
 * transports/streamable-http §Backward Compatibility): a recognized modern JSON-RPC error
 * identifies a modern server; any other rejection of a modern request, a legacy one.
 */
public final class EraEvidence {

	/** Codes -32020 to -32099 are reserved for the MCP specification from 2026-07-28 on. */
	private static final int MODERN_RANGE_LOW = -32099;

	private static final int MODERN_RANGE_HIGH = -32020;

	/** Codes -32000 to -32019 were allocated by implementations before 2026-07-28. */
	private static final int LEGACY_RANGE_LOW = -32019;

	private static final int LEGACY_RANGE_HIGH = -32000;

	private EraEvidence() {
	}

	/**
	 * Whether a JSON-RPC error code belongs to the range the modern specification
	 * reserves (2026-07-28 basic §Error Codes).
	 * @param code the code
	 * @return {@code true} for a modern code
	 */
	public static boolean isModernErrorCode(int code) {
		return code >= MODERN_RANGE_LOW && code <= MODERN_RANGE_HIGH;
	}

	/**
	 * Whether a {@code server/discover} probe was answered with a JSON-RPC error that is not
	 * a modern one: a legacy server refusing an unknown method before {@code initialize}
	 * (2026-07-28 basic/transports/stdio §Backward Compatibility: any other error means
	 * legacy, and the fallback MUST NOT be keyed to one specific code).
	 * @param failure the probe's failure
	 * @return {@code true} for a JSON-RPC error outside the modern range
	 */
	public static boolean refusesDiscovery(McpException failure) {
		return failure instanceof McpJsonRpcException error && !isModernErrorCode(error.code());
	}

	/**
	 * Whether a legacy request was rejected with a recognized modern error: the server
	 * speaks the modern era now.
	 * @param failure the failure of a legacy request
	 * @return {@code true} when the server answered an HTTP error with a modern code
	 */
	public static boolean showsModernServer(McpException failure) {
		return failure instanceof McpHttpStatusException status && status.jsonRpcCode() != null
				&& isModernErrorCode(status.jsonRpcCode());
	}

	/**
	 * Whether a modern request was rejected the way a legacy server rejects it: a 400,
	 * 404 or 405 whose body is no JSON-RPC error or one from the legacy implementation range
	 * (-32000 to -32019). Standard JSON-RPC codes such as invalid params say nothing about
	 * the era.
	 * @param failure the failure of a modern request
	 * @return {@code true} when the server looks legacy
	 */
	public static boolean showsLegacyServer(McpException failure) {
		if (!(failure instanceof McpHttpStatusException status)) {
			return false;
		}
		boolean rejected = status.status() == 400 || status.status() == 404 || status.status() == 405;
		Integer code = status.jsonRpcCode();
		return rejected && (code == null || (code >= LEGACY_RANGE_LOW && code <= LEGACY_RANGE_HIGH));
	}

}
