package dev.mcpx.testsupport;

import java.util.Arrays;
import java.util.stream.Collectors;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

/**
 * The OAuth side of a scripted upstream on WireMock, shared by the tests that script an
 * authorization flow: protected resource metadata (RFC 9728), a token endpoint, and the
 * answers of an identity provider's token exchange (RFC 8693) in enterprise-managed
 * authorization ({@code io.modelcontextprotocol/enterprise-managed-authorization} §4).
 */
public final class OAuthWireStubs {

	/** RFC 7523 §2.1: the grant type of a JWT bearer grant. */
	public static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

	/** RFC 8693 §2.1: the grant type of a token exchange. */
	public static final String TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

	/** Enterprise-managed authorization §4: the token type of an identity assertion authorization grant. */
	public static final String ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";

	private OAuthWireStubs() {
	}

	/**
	 * Serves the protected resource metadata of an MCP endpoint at its well-known URL
	 * (RFC 9728 §3.1: the endpoint's path appended).
	 * @param server the MCP server
	 * @param mcpPath the endpoint's path, for example {@code /mcp}
	 * @param authorizationServer the issuer it names
	 * @param scopes its {@code scopes_supported}, none to leave it out
	 */
	public static void protectedResource(McpWireMock server, String mcpPath, String authorizationServer,
			String... scopes) {
		String supported = (scopes.length == 0) ? ""
				: ",\"scopes_supported\":["
						+ Arrays.stream(scopes).map((scope) -> "\"" + scope + "\"").collect(Collectors.joining(","))
						+ "]";
		server.stubFor(get(urlEqualTo("/.well-known/oauth-protected-resource" + mcpPath))
			.willReturn(okJson("{\"resource\":\"" + server.baseUrl() + mcpPath + "\",\"authorization_servers\":[\""
					+ authorizationServer + "\"]" + supported + "}")));
	}

	/**
	 * A token endpoint (an authorization server's or an identity provider's) that answers
	 * every request with the status and JSON body given.
	 * @param server the server
	 * @param path the endpoint's path
	 * @param status the HTTP status
	 * @param body the JSON body
	 */
	public static void tokenEndpoint(McpWireMock server, String path, int status, String body) {
		server.stubFor(post(urlEqualTo(path)).willReturn(aResponse().withStatus(status)
			.withHeader("Content-Type", "application/json")
			.withBody(body)));
	}

	/**
	 * An identity provider's answer to the token exchange of enterprise-managed authorization:
	 * the ID-JAG, with {@code issued_token_type} (RFC 8693 §2.2.1).
	 * @param idJag the identity assertion authorization grant
	 * @return the JSON body
	 */
	public static String idJagIssued(String idJag) {
		return "{\"access_token\":\"" + idJag + "\",\"issued_token_type\":\"" + ID_JAG
				+ "\",\"token_type\":\"N_A\",\"expires_in\":300}";
	}

	/**
	 * The same answer without {@code issued_token_type}, which RFC 8693 §2.2.1 requires.
	 * @param idJag the identity assertion authorization grant
	 * @return the JSON body
	 */
	public static String idJagWithoutIssuedTokenType(String idJag) {
		return "{\"access_token\":\"" + idJag + "\",\"token_type\":\"N_A\"}";
	}

	/**
	 * A token response with a bearer access token.
	 * @param accessToken the access token
	 * @param expiresIn its lifetime in seconds
	 * @return the JSON body
	 */
	public static String bearer(String accessToken, long expiresIn) {
		return "{\"access_token\":\"" + accessToken + "\",\"token_type\":\"Bearer\",\"expires_in\":" + expiresIn + "}";
	}

}
