package dev.mcpx.client.oauth;

import org.jspecify.annotations.Nullable;

/**
 * A client identity obtained by dynamic client registration (RFC 7591), bound to the
 * authorization server that issued it (2026-07-28 basic/authorization/client-registration
 * §Authorization Server Binding).
 *
 * @param issuer the issuer identifier of the authorization server that registered it
 * @param clientId the client identifier
 * @param clientSecret the client secret, or {@code null} for a public client
 * @param tokenEndpointAuthMethod how the client authenticates at the token endpoint
 * ({@code none}, {@code client_secret_basic} or {@code client_secret_post})
 */
public record McpRegisteredClient(String issuer, String clientId, @Nullable String clientSecret,
		String tokenEndpointAuthMethod) {

	@Override
	public String toString() {
		// the secret stays out of logs and messages
		return "McpRegisteredClient[issuer=" + this.issuer + ", clientId=" + this.clientId + ", clientSecret="
				+ ((this.clientSecret != null) ? "(set)" : "none") + ", tokenEndpointAuthMethod="
				+ this.tokenEndpointAuthMethod + "]";
	}

}
