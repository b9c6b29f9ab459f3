package dev.mcpx.client.internal.transport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;

/**
 * An exchange failed before its message could reach the upstream, so the upstream cannot
 * have acted on it (the connection was refused, the host is unknown, the process could not
 * be started). Any other I/O failure leaves the message's fate unknown.
 */
public final class NotSentException extends IOException {

	/**
	 * Creates the exception.
	 * @param cause why the message could not be sent
	 */
	public NotSentException(IOException cause) {
		super(cause.getMessage(), cause);
	}

	/**
	 * Whether a failure proves that nothing reached the server.
	 * @param failure an I/O failure of a connection attempt
	 * @return {@code true} for a refused connection or an unknown or unreachable host
	 */
	public static boolean provesNotSent(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof ConnectException || t instanceof UnknownHostException
					|| t instanceof NoRouteToHostException || t instanceof UnresolvedAddressException) {
				return true;
			}
		}
		return false;
	}

}
