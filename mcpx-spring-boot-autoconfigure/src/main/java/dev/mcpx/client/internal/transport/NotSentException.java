package dev.mcpx.client.internal.transport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;

/**
 * An exchange failed before its request could reach the server, so the server cannot
 * have acted on it (the connection was refused, the host is unknown). Any other I/O
 * failure leaves the request's fate unknown.
 */
public final class NotSentException extends IOException {

	NotSentException(IOException cause) {
		super(cause.getMessage(), cause);
	}

	static boolean provesNotSent(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof ConnectException || t instanceof UnknownHostException
					|| t instanceof NoRouteToHostException || t instanceof UnresolvedAddressException) {
				return true;
			}
		}
		return false;
	}

}
