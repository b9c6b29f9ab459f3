package dev.mcpx.client.internal.transport.stdio;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

/**
 * The server process of a channel ended; a message was or was not delivered to it.
 */
public final class ChannelClosedException extends IOException {

	private final ExitStatus exit;

	private final boolean delivered;

	ChannelClosedException(ExitStatus exit, boolean delivered, @Nullable Throwable cause) {
		super("the server " + exit.describe(), cause);
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
	 * Whether the message had reached the process before it ended: {@code false} proves
	 * the server never read it.
	 * @return {@code true} when the process may have read it
	 */
	public boolean delivered() {
		return this.delivered;
	}

}
