package dev.mcpx.client.internal.session;

import java.util.Set;

import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpCancelledException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpRecoveryFailedException;
import dev.mcpx.client.error.McpTimeoutException;

/**
 * What a failed exchange says about the era of the server that answered it (2026-07-28
 * basic/versioning §Backward Compatibility; transports/streamable-http and transports/stdio
 * §Backward Compatibility): a recognized modern JSON-RPC error identifies a modern server,
 * any other answer a legacy one, and no answer nothing at all.
 */
public final class EraEvidence {

	/**
	 * The codes the 2026-07-28 revision defines (basic §Error Codes): {@code HeaderMismatch},
	 * {@code MissingRequiredClientCapability}, {@code UnsupportedProtocolVersion}. Only a server
	 * of that revision answers with one; {@code -32042} lies in the same range but belongs to
	 * 2025-11-25, so the range alone recognizes nothing.
	 */
	private static final Set<Integer> RECOGNIZED_MODERN_CODES = Set.of(-32020, -32021, -32022);

	/** Codes -32020 to -32099 are reserved for the MCP specification from 2026-07-28 on. */
	private static final int MODERN_RANGE_LOW = -32099;

	private static final int MODERN_RANGE_HIGH = -32020;

	/** Codes -32000 to -32019 were allocated by implementations before 2026-07-28. */
	private static final int LEGACY_RANGE_LOW = -32019;

	private static final int LEGACY_RANGE_HIGH = -32000;

	private EraEvidence() {
	}

	/**
	 * What the failure of a {@code server/discover} probe says of the server's era.
	 */
	public enum Discovery {

		/**
		 * A recognized modern JSON-RPC error: the server is modern; the recovery rules
		 * correct the request (another version, other headers) rather than fall back.
		 */
		MODERN,

		/**
		 * Any other answer (any HTTP status, any body, HTML, an empty or non-JSON-RPC body, a
		 * JSON-RPC error of another code, a result that is not a discovery result): the
		 * server is legacy; {@code initialize} follows.
		 */
		LEGACY,

		/**
		 * No answer: the server was not reached, or its answer was lost on the way (connection
		 * refused, reset, cut, timed out over HTTP). Nothing is learned; the next call detects
		 * again.
		 */
		UNANSWERED,

		/**
		 * A failure that is not about the era and is passed on as it is: refused credentials
		 * (the credentials rule refreshes them, then detection runs again), a cancellation,
		 * a server process that could not be started.
		 */
		NOT_ABOUT_ERA

	}

	/**
	 * What the failure of a {@code server/discover} probe says of the server's era: a
	 * recognized modern error identifies a modern server, anything else the server answered a
	 * legacy one (2026-07-28 basic/versioning §Backward Compatibility: "Anything else identifies
	 * a legacy server"; transports/stdio: the fallback MUST NOT be keyed to one specific error
	 * code). A probe that got no answer is no evidence, except on stdio, where a server that
	 * does not respond within the timeout is legacy (transports/stdio §Backward Compatibility):
	 * over HTTP a timeout may be the network's.
	 * @param failure the probe's failure
	 * @param silenceIsLegacy whether a probe left unanswered until its timeout identifies a
	 * legacy server (stdio)
	 * @return the verdict
	 */
	public static Discovery ofDiscovery(McpException failure, boolean silenceIsLegacy) {
		if (failure instanceof McpAuthenticationException || failure instanceof McpCancelledException
				|| failure instanceof McpRecoveryFailedException) {
			return Discovery.NOT_ABOUT_ERA;
		}
		if (failure instanceof McpTimeoutException) {
			return silenceIsLegacy ? Discovery.LEGACY : Discovery.UNANSWERED;
		}
		if (failure instanceof McpJsonRpcException error) {
			return isRecognizedModernError(error.code()) ? Discovery.MODERN : Discovery.LEGACY;
		}
		if (failure instanceof McpHttpStatusException status) {
			Integer code = status.jsonRpcCode();
			return (code != null && isRecognizedModernError(code)) ? Discovery.MODERN : Discovery.LEGACY;
		}
		if (failure instanceof McpProtocolException) {
			// A complete answer that is no discovery result: a body that is not JSON-RPC, of
			// another content type, without supportedVersions, for another request.
			return Discovery.LEGACY;
		}
		// Not sent (connection refused), lost on the way (reset, cut), or the client's own
		// failure: the server said nothing.
		return Discovery.UNANSWERED;
	}

	/**
	 * A failure's message without the upstream it names, to quote inside another failure's
	 * message; messages are scrubbed where they are made (no session id, no header value).
	 * @param failure the failure
	 * @return its message
	 */
	public static String quoted(McpException failure) {
		String message = String.valueOf(failure.getMessage());
		String prefix = "[" + failure.upstream() + "] ";
		return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
	}

	/**
	 * Whether a JSON-RPC error code is one the 2026-07-28 revision defines, which only a
	 * modern server answers with (basic/versioning §Backward Compatibility: "a recognized
	 * modern JSON-RPC error").
	 * @param code the code
	 * @return {@code true} for a recognized modern error
	 */
	public static boolean isRecognizedModernError(int code) {
		return RECOGNIZED_MODERN_CODES.contains(code);
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
	 * Whether a legacy request was rejected with a recognized modern error: the server
	 * speaks the modern era now.
	 * @param failure the failure of a legacy request
	 * @return {@code true} when the server answered an HTTP error with a recognized modern code
	 */
	public static boolean showsModernServer(McpException failure) {
		return failure instanceof McpHttpStatusException status && status.jsonRpcCode() != null
				&& isRecognizedModernError(status.jsonRpcCode());
	}

	/**
	 * Whether a modern request of an upstream detected as modern was rejected the way a
	 * legacy server rejects it: a 400, 404 or 405 whose body is no JSON-RPC error or one from
	 * the legacy implementation range (-32000 to -32019). Standard JSON-RPC codes such as
	 * invalid params, and any other status (a server error), say nothing about the era: a
	 * server once found modern is detected again only on this narrower evidence.
	 * @param failure the failure of a modern request
	 * @return {@code true} when the server looks legacy
	 */
	public static boolean showsLegacyServer(McpException failure) {
		if (!(failure instanceof McpHttpStatusException status) || failure instanceof McpAuthenticationException) {
			return false;
		}
		boolean rejected = status.status() == 400 || status.status() == 404 || status.status() == 405;
		Integer code = status.jsonRpcCode();
		return rejected && (code == null || (code >= LEGACY_RANGE_LOW && code <= LEGACY_RANGE_HIGH));
	}

}
