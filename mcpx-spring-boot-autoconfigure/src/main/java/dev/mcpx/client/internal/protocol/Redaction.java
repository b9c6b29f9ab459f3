package dev.mcpx.client.internal.protocol;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Turns secrets into forms safe for logs, events, health and exception messages.
 */
public final class Redaction {

	/** Enough of a session id to tell two apart in a log, too little to use one. */
	private static final int SESSION_ID_PREFIX = 4;

	/** Values shorter than this are not treated as secrets when scrubbing text. */
	private static final int MIN_SECRET_LENGTH = 6;

	/** Splits a secret into its words (for example the token of {@code "Bearer <token>"}). */
	private static final Pattern WHITESPACE = Pattern.compile("\\s+");

	private Redaction() {
	}

	/**
	 * Redacts a session id to its first four characters.
	 * @param sessionId the session id
	 * @return for example {@code "1868…"}, or {@code "none"}
	 */
	public static String sessionId(@Nullable String sessionId) {
		if (sessionId == null) {
			return "none";
		}
		if (sessionId.length() <= SESSION_ID_PREFIX * 2) {
			return "…";
		}
		return sessionId.substring(0, SESSION_ID_PREFIX) + "…";
	}

	/**
	 * Removes secrets from text a server wrote (an error message may echo the session id
	 * or a header the client sent): each secret, and each long word of it, becomes its
	 * redacted form.
	 * @param text the server's text
	 * @param secrets the values to hide, for example header values
	 * @return the text without them
	 */
	public static String scrub(@Nullable String text, Iterable<String> secrets) {
		if (text == null || text.length() < MIN_SECRET_LENGTH) {
			return text; // too short to hold any secret this would hide
		}
		String scrubbed = text;
		for (String secret : secrets) {
			scrubbed = hide(scrubbed, secret);
			if (hasWhitespace(secret)) {
				for (String word : WHITESPACE.split(secret)) {
					scrubbed = hide(scrubbed, word);
				}
			}
		}
		return scrubbed;
	}

	private static boolean hasWhitespace(String value) {
		for (int i = 0; i < value.length(); i++) {
			if (Character.isWhitespace(value.charAt(i))) {
				return true;
			}
		}
		return false;
	}

	private static String hide(String text, String secret) {
		// Short values (a version, "true") are not secrets and would garble the text.
		if (secret.length() < MIN_SECRET_LENGTH || !text.contains(secret)) {
			return text;
		}
		return text.replace(secret, sessionId(secret));
	}

}
