package dev.mcpx.client;

import java.util.List;

/**
 * How an upstream that acts for each user gives a call to the calling thread's user: a client
 * of the user's own ({@link UserSessions}, the legacy era, where a server binds a session to
 * the identity that opened it), or one client that carries the user's token on that call
 * ({@link UserTokens}, the modern era, which has no session).
 */
interface UserCalls extends AutoCloseable {

	/**
	 * The client a call for the user goes through, held for that user until it is released.
	 * @param user the user's key
	 * @param method the method about to be called, for a refusal's message
	 * @return the client, and its release
	 */
	Hold hold(String user, String method);

	/**
	 * A task started for the user, to be followed on the user's behalf later.
	 * @param user the user's key
	 * @param task the task, as the client returned it
	 * @return the task, followed with the user's credentials
	 */
	default McpTask task(String user, McpTask task) {
		return task;
	}

	/**
	 * The clients in use now, for what concerns them all (status, catalogue, roots).
	 * @return the clients
	 */
	List<McpClient> clients();

	/**
	 * The users held now and since the start, by count.
	 * @return the counts
	 */
	McpClientStatus.UserSessions counts();

	@Override
	void close();

	/**
	 * A client held for one user's call.
	 *
	 * @param client the client to call
	 * @param release ends the hold: called once, when the call (or subscription) is over
	 */
	record Hold(McpClient client, Runnable release) {
	}

}
