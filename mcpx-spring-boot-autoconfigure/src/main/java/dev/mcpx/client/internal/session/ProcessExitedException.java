package dev.mcpx.client.internal.session;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.internal.transport.stdio.ExitStatus;

/**
 * The server process of a stdio upstream ended while a request was pending, or before it
 * could be sent: the stdio counterpart of a dead session and a lost stream at once. Whether
 * the request may have run is {@link #delivered()}; the recovery layer restarts the process
 * and decides what is sent again.
 */
public final class ProcessExitedException extends McpStreamLostException {

	private final ExitStatus exit;

	private final boolean delivered;

	/**
	 * Creates the failure of one request.
	 * @param upstream the upstream name
	 * @param method the request's method
	 * @param exit how the process ended
	 * @param delivered whether the process may have read the request
	 * @param cause the underlying failure
	 */
	public ProcessExitedException(String upstream, String method, ExitStatus exit, boolean delivered,
			@Nullable Throwable cause) {
		super(upstream, method, delivered ? method + "'s response was lost: the server " + exit.describe()
				: method + " was not sent: the server " + exit.describe(), cause, null, -1, true);
		this.exit = exit;
		this.delivered = delivered;
	}

	/**
	 * How the process ended.
	 * @return the exit
	 */
	public ExitStatus exit() {
		return this.exit;
	}

	/**
	 * Whether the process may have read the request before it ended; {@code false} proves
	 * it never ran.
	 * @return {@code true} when the request may have run
	 */
	public boolean delivered() {
		return this.delivered;
	}

}
