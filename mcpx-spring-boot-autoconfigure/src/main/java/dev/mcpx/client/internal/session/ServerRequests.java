package dev.mcpx.client.internal.session;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.JsonRpcMessage;
import dev.mcpx.client.internal.protocol.McpMethods;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one home of the answers to requests a server sends the client, whatever the era and
 * the transport they arrived on (a POST's response stream, the listen stream, a stdio
 * channel): this class decides the answer, the exchange sends it back the way the request
 * came.
 * <p>
 * Legacy era: {@code ping} is answered with an empty result (2025-11-25
 * basic/utilities/ping); anything else with method-not-found, since this client declares
 * no capability that invites server requests (2025-11-25 basic §Responses). Modern era:
 * servers must not send requests on a stream and a client never sends responses
 * (2026-07-28 transports/streamable-http §Sending Messages, rule 4): the request is dropped;
 * input is asked for in results instead (basic/patterns/mrtr).
 */
public final class ServerRequests {

	private static final Log logger = LogFactory.getLog(ServerRequests.class);

	private final String upstream;

	private final JsonRpc jsonRpc;

	/**
	 * Creates the server-request answers of one client.
	 * @param upstream the upstream name
	 * @param jsonRpc the message codec
	 */
	public ServerRequests(String upstream, JsonRpc jsonRpc) {
		this.upstream = upstream;
		this.jsonRpc = jsonRpc;
	}

	/**
	 * The capabilities the client declares in {@code initialize}: the server requests it
	 * answers beyond {@code ping} (2025-11-25 basic/lifecycle §Capability Negotiation).
	 * None yet: a server asks nothing else of this client.
	 * @return the client capabilities
	 */
	public ObjectNode clientCapabilities() {
		return this.jsonRpc.object();
	}

	/**
	 * The answer to one server request.
	 * @param request what the server asked
	 * @param options the era's behaviour
	 * @return the encoded response to send back, absent when the request is not answered
	 */
	public byte @Nullable [] answer(JsonRpcMessage.Request request, ExchangeOptions options) {
		if (!options.answerServerRequests()) {
			logger.debug("[" + this.upstream + "] ignored a server request (" + request.method()
					+ ") on a modern response stream");
			return null;
		}
		if (McpMethods.PING.equals(request.method())) {
			return this.jsonRpc.result(request.id(), this.jsonRpc.object());
		}
		return this.jsonRpc.error(request.id(), McpJsonRpcException.METHOD_NOT_FOUND,
				"Method not found: " + request.method());
	}

}
