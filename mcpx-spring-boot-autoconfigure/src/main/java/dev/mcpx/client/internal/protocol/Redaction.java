package dev.mcpx.client.internal.protocol;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.lang.Contract;

/**
 * Turns secrets into forms safe for logs, events, health and exception messages. One
 * instance per client also remembers the session ids the client held, so that a server's
 * error text naming one, even after its session is gone, is scrubbed of it.
 */
public final class Redaction {

	/** Enough of a session id to tell two apart in a log, too little to use one. */
	private static final int SESSION_ID_PREFIX = 4;

	/** Values shorter than this are not treated as secrets when scrubbing text. */
	private static final int MIN_SECRET_LENGTH = 6;

	/** Enough past sessions to cover any error still in flight about them. */
	static final int MAX_HELD_SESSION_IDS = 8;

	/** Splits a secret into its words (for example the token of {@code "Bearer <token>"}). */
	private static final Pattern WHITESPACE = Pattern.compile("\\s+");

	/** Session ids this client held, newest last. */
	private final Deque<String> heldSessionIds = new ArrayDeque<>();

	/**
	 * Records a session id the client was given.
	 * @param sessionId the session id
	 */
	public void remember(String sessionId) {
		synchronized (this.heldSessionIds) {
			this.heldSessionIds.addLast(sessionId);
			while (this.heldSessionIds.size() > MAX_HELD_SESSION_IDS) {
				this.heldSessionIds.removeFirst();
			}
		}
	}

	/**
	 * Removes secrets from text a server wrote (an error message may echo the session id or
	 * a header the client sent): every session id this client held and every given value,
	 * and each long word of them, become their redacted form.
	 * @param text the server's text
	 * @param sent the values the client sent with the message (header values), read only
	 * when the text is long enough to hold one
	 * @return the text without them
	 */
	@Contract("!null, _ -> !null")
	public @Nullable String scrub(@Nullable String text, Iterable<String> sent) {
		if (text == null || text.length() < MIN_SECRET_LENGTH) {
			return text; // too short to hold any secret this would hide
		}
		List<String> secrets = new ArrayList<>();
		sent.forEach(secrets::add);
		synchronized (this.heldSessionIds) {
			secrets.addAll(this.heldSessionIds);
		}
		return scrubbed(text, secrets);
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

	private static String scrubbed(String text, List<String> secrets) {
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
