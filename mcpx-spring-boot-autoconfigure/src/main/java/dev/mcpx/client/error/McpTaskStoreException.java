package dev.mcpx.client.error;

import org.jspecify.annotations.Nullable;

/**
 * A task journal ({@code McpTaskStore}) could not be read or written: the database is down, a row cannot be
 * decoded. A journal that cannot be written never fails the call it records (the client logs and counts it); the
 * guarantee that the task outlives the application is then void.
 */
public class McpTaskStoreException extends McpException {

	/**
	 * Creates an exception.
	 * @param upstream the upstream of the task concerned, or the name of the journal when no task is
	 * @param message what went wrong, with no session id and no argument value
	 * @param cause the underlying failure
	 */
	public McpTaskStoreException(String upstream, String message, @Nullable Throwable cause) {
		super(upstream, message, cause);
	}

}
