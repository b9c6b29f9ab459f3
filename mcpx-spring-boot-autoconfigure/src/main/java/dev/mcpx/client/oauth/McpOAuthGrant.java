package dev.mcpx.client.oauth;

/**
 * How a client obtains its access tokens.
 */
public enum McpOAuthGrant {

	/**
	 * A user authorizes the client in a browser (authorization code with PKCE, 2025-11-25
	 * basic/authorization §Authorization Flow Steps).
	 */
	AUTHORIZATION_CODE,

	/**
	 * The client acts on its own behalf with its own credentials (OAuth 2.1 §4.2, the MCP
	 * client credentials extension).
	 */
	CLIENT_CREDENTIALS

}
