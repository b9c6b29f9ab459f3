package dev.mcpx.client.error;

/**
 * A call of an upstream that acts for a user was made by a thread that acts for no user. It
 * was not sent: such an upstream never falls back to the application's own identity. The
 * status is 401, the refusal such a call would meet.
 */
public class McpNoUserException extends McpAuthenticationException {

	/**
	 * Creates the exception.
	 * @param upstream the upstream name
	 * @param method the method of the call that was not sent
	 */
	public McpNoUserException(String upstream, String method) {
		super(upstream, 401, "no user in the calling thread: the upstream acts for a user and never as the "
				+ "application, so " + method + " was not sent");
	}

}
