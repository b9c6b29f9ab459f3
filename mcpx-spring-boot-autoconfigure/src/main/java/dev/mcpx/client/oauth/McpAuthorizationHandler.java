package dev.mcpx.client.oauth;

import java.net.URI;

/**
 * The user's step of the authorization code flow (2025-11-25 basic/authorization
 * §Authorization Flow Steps): sends the user's browser to the authorization URL and returns
 * the redirect it came back with.
 * <p>
 * In a web application: redirect the user to {@link McpAuthorizationRequest#authorizationUri()},
 * serve the {@link McpAuthorizationRequest#redirectUri() redirect URI} with a controller that
 * completes a future keyed by {@link McpAuthorizationRequest#state()} with the full callback
 * URL, and return that URL here (the calling thread waits for it). Without a handler,
 * {@link #headless()} fails with {@link McpAuthorizationRequiredException} naming the URL to
 * open.
 */
@FunctionalInterface
public interface McpAuthorizationHandler {

	/**
	 * Has a user authorize the client.
	 * @param request the authorization request
	 * @return the full redirect URI the browser was sent back to, with its {@code code},
	 * {@code state} and (when the server sends it) {@code iss} query parameters
	 * @throws McpAuthorizationException when the user cannot or did not authorize
	 */
	URI authorize(McpAuthorizationRequest request);

	/**
	 * The handler of an application that cannot show a browser: every authorization fails
	 * with {@link McpAuthorizationRequiredException}, which names the URL to open.
	 * @return the headless handler
	 */
	static McpAuthorizationHandler headless() {
		return (request) -> {
			throw new McpAuthorizationRequiredException(request.upstream(), request.authorizationUri());
		};
	}

}
