package dev.mcpx.client.internal.session;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.internal.transport.NotSentException;
import dev.mcpx.client.internal.transport.StreamBrokenException;

/**
 * Turns what a transport threw into the typed failure a caller, and the recovery layer,
 * can act on: a message that never left is an {@link McpTransportException}, a response that
 * never arrived an {@link McpStreamLostException} (never matched by its text), and the
 * upstream's own refusals pass through. Timeouts are the exchange's, which knows the
 * deadline.
 */
final class Failures {

	private final String upstream;

	private final String destination;

	/**
	 * Creates the translation of one client.
	 * @param upstream the upstream name
	 * @param destination where the transport reaches, safe to show
	 */
	Failures(String upstream, String destination) {
		this.upstream = upstream;
		this.destination = destination;
	}

	/**
	 * The typed failure of one exchange.
	 * @param method the method of the message
	 * @param failure what the transport threw
	 * @param resumable whether a broken stream of this era may be resumed (2026-07-28
	 * streams are not resumable)
	 * @return the typed failure
	 */
	McpException translate(String method, Exception failure, boolean resumable) {
		if (failure instanceof McpException mcp) {
			return mcp;
		}
		if (Thread.currentThread().isInterrupted()) {
			return new McpTransportException(this.upstream, method + " was interrupted", failure);
		}
		if (failure instanceof NotSentException) {
			return new McpTransportException(this.upstream, "could not reach " + this.destination + " ("
					+ unreachable(failure) + "); " + method + " was not sent", failure);
		}
		if (failure instanceof StreamBrokenException broken) {
			return new StreamLost(this.upstream, method, method + "'s response was lost: " + broken.getMessage(),
					broken, resumable ? broken.resumption() : null, broken.sessionGone(),
					resumable ? broken.notResumable() : null);
		}
		if (failure instanceof IOException) {
			return new StreamLost(this.upstream, method,
					method + "'s exchange failed before its response: " + describe(failure), failure, null, false);
		}
		return new McpException(this.upstream, method + " failed: " + failure, failure);
	}

	/** Why a connection could not be made, in the words an operator searches for. */
	private static String unreachable(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t instanceof ConnectException) {
				return "connection refused";
			}
			if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
				return "unknown host";
			}
			if (t instanceof NoRouteToHostException) {
				return "no route to host";
			}
		}
		return describe(failure);
	}

	/** The innermost message of an I/O failure: the JDK often leaves the outer one empty. */
	static String describe(Throwable failure) {
		String description = failure.getClass().getSimpleName();
		for (Throwable t = failure; t != null; t = t.getCause()) {
			if (t.getMessage() != null && !t.getMessage().isBlank()) {
				description = t.getMessage();
			}
			else if (t.getCause() == null) {
				description = t.getClass().getSimpleName();
			}
		}
		return description;
	}

}
