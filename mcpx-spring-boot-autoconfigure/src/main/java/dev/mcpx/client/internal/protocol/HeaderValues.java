package dev.mcpx.client.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Encodes values mirrored into HTTP headers ({@code Mcp-Name}, {@code Mcp-Param-*}) as
 * 2026-07-28 transports/streamable-http §Value Encoding requires: plain when the value is
 * visible ASCII or inner spaces, otherwise the Base64 sentinel form
 * {@code =?base64?...?=} of its UTF-8 bytes.
 */
public final class HeaderValues {

	private static final String SENTINEL_PREFIX = "=?base64?";

	private static final String SENTINEL_SUFFIX = "?=";

	private HeaderValues() {
	}

	/**
	 * Encodes a value for a header.
	 * @param value the value
	 * @return the header value, plain or in the Base64 sentinel form
	 */
	public static String encode(String value) {
		return needsBase64(value) ? SENTINEL_PREFIX
				+ Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + SENTINEL_SUFFIX : value;
	}

	private static boolean needsBase64(String value) {
		if (value.isEmpty()) {
			return false;
		}
		// A plain value that looks encoded would be decoded by the server: encode it too.
		if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) {
			return true;
		}
		if (isWhitespace(value.charAt(0)) || isWhitespace(value.charAt(value.length() - 1))) {
			return true;
		}
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			// Controls (tab included) and anything beyond ASCII travel encoded.
			if (c < 0x20 || c > 0x7E) {
				return true;
			}
		}
		return false;
	}

	private static boolean isWhitespace(char c) {
		return c == ' ' || c == '\t';
	}

}
