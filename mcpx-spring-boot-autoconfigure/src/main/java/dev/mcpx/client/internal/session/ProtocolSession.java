package dev.mcpx.client.internal.session;

import java.io.Closeable;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.internal.transport.Resumption;
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
	 * Reads on from where the response stream of a request sent on the given state broke.
	 * One attempt; only eras whose streams are resumable hand out a {@link Resumption}.
	 * @param on the state the request was sent on
	 * @param request the request
	 * @param from where its stream broke
	 * @param remaining what is left of the request's timeout
	 * @return the result
	 * @throws McpException on any failure
	 */
	default JsonNode resume(SessionState on, McpRequest request, Resumption from, Duration remaining) {
		throw new IllegalStateException("the " + on.era() + " era does not resume streams");
	}

	/**
	 * Picks another protocol version after the server refused the one sent, for what is sent
	 * next.
	 * @param refused the state whose version was refused, absent when the refusal came to
	 * the discovery that opens the session
	 * @param supported the versions the server said it supports
	 * @return the state to retry on (when opening, a state naming the version the next
	 * discovery offers), absent when this era cannot renegotiate or no version is mutual
	 */
	default @Nullable SessionState negotiate(@Nullable SessionState refused, List<String> supported) {
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
	ListenOutcome listen(SessionState on, Consumer<Closeable> opened);

	/**
	 * Sends a notification on the given state, where its era has notifications from the
	 * client outside a request (legacy); elsewhere nothing is sent.
	 * @param on the state to send it on
	 * @param method the method
	 * @param params the parameters
	 * @param timeout the bound of the exchange
	 * @throws McpException on any failure
	 */
	default void notify(SessionState on, String method, @Nullable JsonNode params, Duration timeout) {
	}

	/**
	 * What the client API does differently in the state's era.
	 * @param on the state
	 * @return the era's traits
	 */
	EraTraits traits(SessionState on);

	/**
	 * Ends the session, bounded, errors ignored.
	 */
	void close();

}
