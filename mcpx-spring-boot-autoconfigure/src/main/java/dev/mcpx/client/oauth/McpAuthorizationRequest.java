package dev.mcpx.client.oauth;

import java.net.URI;

/**
 * One authorization request of the authorization code flow, for the user's browser.
 *
 * @param upstream the upstream that asked for authorization
 * @param authorizationUri the complete authorization URL (PKCE challenge, {@code state},
 * {@code resource} and scopes included) to send the user's browser to
 * @param redirectUri where the authorization server sends the browser back
 * @param state the {@code state} value the callback must carry back
 */
public record McpAuthorizationRequest(String upstream, URI authorizationUri, URI redirectUri, String state) {
}
