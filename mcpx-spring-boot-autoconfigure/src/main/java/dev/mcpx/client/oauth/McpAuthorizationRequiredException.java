package dev.mcpx.client.oauth;

import java.net.URI;

/**
 * The upstream needs a user to authorize this client and no
 * {@link McpAuthorizationHandler} can ask one: open {@link #authorizationUri()} in a browser,
 * or define a handler bean that does. Thrown by the headless default handler.
 */
public class McpAuthorizationRequiredException extends McpAuthorizationException {

	private final URI authorizationUri;

	/**
	 * Creates the exception.
	 * @param upstream the upstream name
	 * @param authorizationUri the URL a user must open to authorize the client
	 */
	public McpAuthorizationRequiredException(String upstream, URI authorizationUri) {
		super(upstream, "a user must authorize this client: open " + authorizationUri
				+ " in a browser, or define an McpAuthorizationHandler bean that sends the user there", null);
		this.authorizationUri = authorizationUri;
	}

	/**
	 * The authorization request a user must open.
	 * @return the authorization URL
	 */
	public URI authorizationUri() {
		return this.authorizationUri;
	}

}
