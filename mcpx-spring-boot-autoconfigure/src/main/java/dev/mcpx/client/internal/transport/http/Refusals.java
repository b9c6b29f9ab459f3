package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.transport.Envelope;
import dev.mcpx.client.internal.transport.SessionGoneException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * What an HTTP status of 300 or above means, as a typed failure: a session gone, refused
 * credentials, or the status with the JSON-RPC error the body may carry (its message
 * scrubbed of what the client sent). Asked only when an exchange was refused, never on a
 * call that succeeds.
 */
final class Refusals {

	private final String upstream;

	private final URI endpoint;

	private final JsonRpc jsonRpc;

	private final Redaction redaction;

	private final boolean expiryOnBadRequest;

	private final Function<Envelope, Iterable<String>> secrets;

	/**
	 * The refusals of one transport.
	 * @param upstream the upstream name
	 * @param endpoint the MCP endpoint, against which a challenge's metadata URL is resolved
	 * @param jsonRpc reads a JSON-RPC error from the body
	 * @param redaction scrubs secrets from the server's error text
	 * @param expiryOnBadRequest whether a 400 naming the session shows it gone
	 * @param secrets the values of the headers a message carried, which the server may echo
	 */
	Refusals(String upstream, URI endpoint, JsonRpc jsonRpc, Redaction redaction, boolean expiryOnBadRequest,
			Function<Envelope, Iterable<String>> secrets) {
		this.upstream = upstream;
		this.endpoint = endpoint;
		this.jsonRpc = jsonRpc;
		this.redaction = redaction;
		this.expiryOnBadRequest = expiryOnBadRequest;
		this.secrets = secrets;
	}

	/**
	 * The refusal of a request: a session-carrying request answered 404 (or, with the
	 * compatibility on, 400 naming the session) shows the session gone (2025-11-25
	 * basic/transports §Session Management, rule 3); a 404 without a session id is an
	 * ordinary error.
	 */
	McpException ofRequest(HttpLeg.Response response, Envelope envelope) {
		McpException refusal = of(response, envelope);
		if (envelope.sessionId() == null || !(refusal instanceof McpHttpStatusException status)
				|| refusal instanceof McpAuthenticationException) {
			return refusal;
		}
		boolean gone = status.status() == 404 || (status.status() == 400 && this.expiryOnBadRequest
				&& namesSession(status.jsonRpcMessage()));
		return gone ? new SessionGoneException(this.upstream, envelope.method(), status.status(), status) : refusal;
	}

	private static boolean namesSession(@Nullable String message) {
		return message != null && message.toLowerCase(Locale.ROOT).contains("session");
	}

	/** The refusal of any message: the status, with the JSON-RPC error the body may hold. */
	McpException of(HttpLeg.Response response, Envelope envelope) {
		Integer code = null;
		String message = null;
		JsonNode data = null;
		try {
			byte[] body = BoundedBody.readError(response);
			JsonNode json = (body.length > 0) ? this.jsonRpc.parse(body) : null;
			JsonNode error = (json != null) ? json.get("error") : null;
			if (error != null && error.path("code").isIntegralNumber()) {
				code = error.get("code").intValue();
				message = this.redaction.scrub(error.path("message").asString(""),
						() -> this.secrets.apply(envelope).iterator());
				data = error.get("data");
			}
		}
		catch (IOException | JacksonException ex) {
			// The status alone is the answer; the body was only a hint.
		}
		if (response.status() == 401 || response.status() == 403) {
			// 2025-11-25 basic/authorization §Protected Resource Metadata Discovery Requirements:
			// the challenge names the metadata and the scope the credentials need.
			McpAuthChallenge challenge = McpAuthChallenge.parse(response.status(),
					response.headers().get(HttpHeaders.WWW_AUTHENTICATE), this.endpoint);
			return new McpAuthenticationException(this.upstream, envelope.method(), response.status(), challenge,
					null);
		}
		return new McpHttpStatusException(this.upstream, envelope.method(), response.status(), code, message, data);
	}

}
