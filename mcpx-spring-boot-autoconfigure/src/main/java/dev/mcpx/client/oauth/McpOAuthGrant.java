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
	CLIENT_CREDENTIALS,

	/**
	 * The client presents an assertion it holds, such as the platform's workload identity
	 * token, as an RFC 7523 JWT bearer grant (the MCP workload identity federation extension,
	 * {@code io.modelcontextprotocol/auth/wif}); the assertion is read at every grant from an
	 * {@link McpAssertionSource}.
	 */
	JWT_BEARER,

	/**
	 * The client exchanges the user's identity assertion (an ID token from single sign-on) at
	 * the enterprise identity provider for an identity assertion authorization grant (ID-JAG,
	 * RFC 8693 token exchange), then presents it to the upstream's authorization server as an
	 * RFC 7523 JWT bearer grant (the enterprise-managed authorization extension,
	 * {@code io.modelcontextprotocol/enterprise-managed-authorization}).
	 */
	ENTERPRISE_MANAGED

}
