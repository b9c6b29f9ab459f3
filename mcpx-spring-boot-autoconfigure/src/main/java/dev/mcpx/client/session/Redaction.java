package dev.mcpx.client.session;

/**
 * Turns secrets into forms safe for logs, events, health and exception messages.
 */
public final class Redaction {

	/** Enough of a session id to tell two apart in a log, too little to use one. */
	private static final int SESSION_ID_PREFIX = 4;

	private Redaction() {
	}

	/**
	 * Redacts a session id to its first four characters.
	 * @param sessionId the session id, or {@code null}
	 * @return for example {@code "1868…"}, or {@code "none"}
	 */
	public static String sessionId(String sessionId) {
		if (sessionId == null) {
			return "none";
		}
		if (sessionId.length() <= SESSION_ID_PREFIX * 2) {
			return "…";
		}
		return sessionId.substring(0, SESSION_ID_PREFIX) + "…";
	}

}
