package dev.mcpx.autoconfigure.ai;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Tool names as the common model APIs accept them: {@code ^[a-zA-Z0-9_-]{1,64}$}.
 */
final class ToolNames {

	/** The longest name OpenAI, Anthropic and Gemini all accept. */
	static final int MAX_LENGTH = 64;

	/** Hex digits of the hash that keeps two shortened names apart. */
	private static final int HASH_LENGTH = 8;

	private static final Pattern INVALID = Pattern.compile("[^a-zA-Z0-9_-]");

	private ToolNames() {
	}

	/**
	 * Makes a name valid: other characters become {@code _}; a name longer than 64 keeps
	 * its start and ends with a short hash of the whole name, so the same name always gives
	 * the same result and two long names with a common start stay apart.
	 * @param name the name, for example a prefix and the tool's own name
	 * @return a valid name
	 */
	static String sanitize(String name) {
		String valid = INVALID.matcher(name).replaceAll("_");
		if (valid.isEmpty()) {
			return "tool";
		}
		if (valid.length() <= MAX_LENGTH) {
			return valid;
		}
		return valid.substring(0, MAX_LENGTH - HASH_LENGTH - 1) + "_" + hash(name);
	}

	/**
	 * Like {@link #sanitize(String)}, always ending with the hash of the given key: the last
	 * resort for two tools whose names are still equal once qualified by their upstream.
	 * @param name the name
	 * @param key what tells the tool apart, for example the upstream and the tool's own name
	 * @return a valid name
	 */
	static String sanitizeWithHash(String name, String key) {
		String valid = INVALID.matcher(name).replaceAll("_");
		int keep = Math.min(valid.length(), MAX_LENGTH - HASH_LENGTH - 1);
		return valid.substring(0, keep) + "_" + hash(key);
	}

	static boolean isValid(String name) {
		return !name.isEmpty() && name.length() <= MAX_LENGTH && !INVALID.matcher(name).find();
	}

	private static String hash(String value) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest).substring(0, HASH_LENGTH);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is a required algorithm of every JVM", ex);
		}
	}

}
