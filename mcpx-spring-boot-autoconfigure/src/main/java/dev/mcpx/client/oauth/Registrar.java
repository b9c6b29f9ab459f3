package dev.mcpx.client.oauth;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Set;

import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.client.ClientInformation;
import com.nimbusds.oauth2.sdk.client.ClientInformationResponse;
import com.nimbusds.oauth2.sdk.client.ClientMetadata;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationErrorResponse;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationRequest;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationResponse;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import org.jspecify.annotations.Nullable;


/**
 * Dynamic client registration (RFC 7591) through Nimbus, for authorization servers that
 * accept neither a pre-registered client nor a client ID metadata document (2026-07-28
 * basic/authorization/client-registration §Dynamic Client Registration).
 */
final class Registrar {

	private final String upstream;

	private final Duration connectTimeout;

	private final Duration readTimeout;

	/**
	 * Creates the registrar of one upstream.
	 * @param upstream the upstream name
	 * @param connectTimeout the bound of a connection
	 * @param readTimeout the bound of a response
	 */
	public Registrar(String upstream, Duration connectTimeout, Duration readTimeout) {
		this.upstream = upstream;
		this.connectTimeout = connectTimeout;
		this.readTimeout = readTimeout;
	}

	/**
	 * Registers a client.
	 * @param server the authorization server
	 * @param clientName the client's name
	 * @param redirectUri the redirect URI, or {@code null} for a client credentials client
	 * @param authMethod the token endpoint authentication method to ask for
	 * @return the registration, bound to the server's issuer
	 */
	public McpRegisteredClient register(AuthorizationServer server, String clientName, @Nullable URI redirectUri,
			String authMethod) {
		ClientMetadata metadata = new ClientMetadata();
		metadata.setName(clientName);
		if (redirectUri != null) {
			metadata.setRedirectionURI(redirectUri);
			metadata.setResponseTypes(Set.of(ResponseType.CODE));
			// 2025-11-25 basic/authorization §Refresh Tokens: SHOULD include refresh_token
			metadata.setGrantTypes(Set.of(GrantType.AUTHORIZATION_CODE, GrantType.REFRESH_TOKEN));
			// 2026-07-28 basic/authorization/client-registration §Application Type and Redirect
			// URI Constraints: MUST specify application_type
			metadata.setCustomField("application_type",
					SafeUrls.isLoopback(redirectUri.getHost()) ? "native" : "web");
		}
		else {
			metadata.setGrantTypes(Set.of(GrantType.CLIENT_CREDENTIALS));
			metadata.setCustomField("application_type", "web");
		}
		metadata.setTokenEndpointAuthMethod(ClientAuthenticationMethod.parse(authMethod));
		HTTPRequest request = new ClientRegistrationRequest(server.registrationEndpoint(), metadata, null)
			.toHTTPRequest();
		request.setFollowRedirects(false);
		request.setConnectTimeout((int) this.connectTimeout.toMillis());
		request.setReadTimeout((int) this.readTimeout.toMillis());
		ClientRegistrationResponse response;
		try {
			HTTPResponse http = request.send();
			response = ClientRegistrationResponse.parse(http);
		}
		catch (IOException | ParseException ex) {
			throw new McpAuthorizationException(this.upstream,
					"dynamic client registration at " + server.registrationEndpoint() + " failed: " + ex.getMessage(),
					null);
		}
		if (!response.indicatesSuccess()) {
			ClientRegistrationErrorResponse error = (ClientRegistrationErrorResponse) response;
			throw new McpAuthorizationException(this.upstream, "dynamic client registration at "
					+ server.registrationEndpoint() + " was refused: " + error.getErrorObject().getCode()
					+ ((error.getErrorObject().getDescription() != null)
							? " (" + error.getErrorObject().getDescription() + ")" : ""),
					null);
		}
		ClientInformation information = ((ClientInformationResponse) response).getClientInformation();
		String secret = (information.getSecret() != null) ? information.getSecret().getValue() : null;
		ClientAuthenticationMethod granted = information.getMetadata().getTokenEndpointAuthMethod();
		String method = (granted != null) ? granted.getValue() : authMethod;
		if (secret == null && !method.equals("none") && !method.equals("private_key_jwt")) {
			method = "none";
		}
		return new McpRegisteredClient(server.issuer(), information.getID().getValue(), secret, method);
	}

}
