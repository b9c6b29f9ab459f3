package dev.mcpx.client.internal.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import tools.jackson.databind.JsonNode;

/**
 * What a client has with its upstream in one protocol era: a legacy session, a modern
 * stateless exchange, or a detector that picks one. Each method makes one attempt; trying
 * again is the recovery layer's decision.
 */
public interface ProtocolSession {

	/**
	 * The current state, establishing it first if need be (a handshake, a discovery).
	 * @return the current state
	 * @throws McpException if it cannot be established
	 */
	SessionState open();

	/**
	 * The current state without establishing one.
	 * @return the state, absent before first use
	 */
	@Nullable SessionState current();

	/**
	 * Replaces a dead legacy session, once for all callers that saw it die.
	 * @param dead the state a request failed on
	 * @param listener hears of the renewal, from the one caller that performs it
	 * @return the state to retry on
	 * @throws McpException if the handshake fails
	 */
	SessionState renew(SessionState dead, RenewalListener listener);

	/**
	 * Forgets a dead session without replacing it: the next use establishes a new one.
	 * @param dead the state found dead
	 */
	void invalidate(SessionState dead);

	/**
	 * Sends a request on the given state and returns its result. One attempt.
	 * @param on the state to send it on
	 * @param request the request
	 * @return the result
	 * @throws McpException on any failure
	 */
	JsonNode request(SessionState on, McpRequest request);

	/**
	 * Picks another protocol version after the server refused the state's version.
	 * @param refused the state whose version was refused
	 * @param supported the versions the server said it supports
	 * @return the state to retry on, absent when this era cannot renegotiate
	 * @throws McpException if no version is supported by both
	 */
	default @Nullable SessionState negotiate(SessionState refused, List<String> supported) {
		return null;
	}

	/**
	 * Detects the upstream's era again after the cached assumption failed (the upstream
	 * was upgraded or downgraded in place).
	 * @param failed the state a request failed on
	 * @return the state to retry on, absent when the era is fixed by configuration
	 * @throws McpException if detection fails
	 */
	default @Nullable SessionState redetect(SessionState failed) {
		return null;
	}

	/**
	 * Holds the state's notification stream open until it ends (legacy: GET on the session;
	 * modern: {@code subscriptions/listen} for list changes), dispatching notifications to
	 * the client's listeners.
	 * @param on the state to listen on
	 * @param opened receives the open stream, to close it when listening must stop
	 * @return how the stream ended
	 * @throws McpException if the stream could not be opened
	 */
	JsonRpcExchange.ListenOutcome listen(SessionState on, java.util.function.Consumer<java.io.Closeable> opened);

	/**
	 * Ends the session, bounded, errors ignored.
	 */
	void close();

}
