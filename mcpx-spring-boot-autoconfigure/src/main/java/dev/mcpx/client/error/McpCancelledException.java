package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * The calling thread was interrupted while it waited for a request: the client stopped
 * waiting, told the server (2025-11-25 basic/utilities/cancellation; 2026-07-28
 * basic/patterns/cancellation) and never sends the request again. The
 * thread's interrupt flag is set again when this is thrown.
 */
public class McpCancelledException extends McpException {

	private final String method;

	/**
	 * Creates an exception for a cancelled request.
	 * @param upstream the upstream name
	 * @param method the method of the request
	 * @param cause the interruption as the transport saw it, absent when nothing was sent yet
	 */
	public McpCancelledException(String upstream, String method, @Nullable Throwable cause) {
		super(upstream, (cause != null)
				? method + " was cancelled: the calling thread was interrupted; the server was told and the request "
						+ "was not sent again"
				: method + " was not sent: the calling thread was interrupted", cause);
		this.method = method;
	}

	/**
	 * The method of the cancelled request.
	 * @return for example {@code tools/call}
	 */
	public String method() {
		return this.method;
	}

}
