package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The upstream forgot the session a request was sent on, and the request was not answered:
 * either it expired again on its one retry, or it was not retried (it names state of the
 * expired session, or the replay gate refused it, or session recovery is off).
 */
public class McpSessionExpiredException extends McpException {

	private final String method;

	private final long generation;


	/**
	 * Creates an exception for an expired session.
	 * @param upstream the upstream name
	 * @param method the method of the request that was not answered
	 * @param generation the session generation the request last failed on
	 * @param message what happened and why the request was not answered
	 * @param cause the failure that showed the session gone
	 */
	public McpSessionExpiredException(String upstream, String method, long generation, String message,
			@Nullable Throwable cause) {
		super(upstream, message, cause);
		this.method = method;
		this.generation = generation;
	}

	/**
	 * The method of the request that was not answered.
	 * @return the method
	 */
	public String method() {
		return this.method;
	}

	/**
	 * The session generation the request last failed on.
	 * @return the generation
	 */
	public long generation() {
		return this.generation;
	}

}
