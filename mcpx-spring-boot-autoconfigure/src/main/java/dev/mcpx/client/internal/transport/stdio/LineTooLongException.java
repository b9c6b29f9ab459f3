package dev.mcpx.client.internal.transport.stdio;

import java.io.IOException;

/**
 * A line exceeded the largest message accepted; its bytes were not kept.
 */
public final class LineTooLongException extends IOException {

	private final int limit;

	LineTooLongException(int limit) {
		super("a line exceeded the limit of " + limit + " bytes");
		this.limit = limit;
	}

	/**
	 * The limit the line exceeded.
	 * @return the limit in bytes
	 */
	public int limit() {
		return this.limit;
	}

}
