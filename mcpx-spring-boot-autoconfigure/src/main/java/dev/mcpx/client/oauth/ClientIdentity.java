package dev.mcpx.client.oauth;

import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

/**
 * The client identity of one upstream's credentials (2026-07-28
 * basic/authorization/client-registration): a pre-registered client bound to its
 * authorization server, a client ID metadata document, or a client registered dynamically
 * once per authorization server and kept in the {@link McpClientRegistrationStore}.
 */
final class ClientIdentity {

	/** The credentials' own logger: one place to turn their story on. */
	private static final Log logger = LogFactory.getLog(McpOAuthCredentials.class);

	private final OAuthSettings settings;

	private final Registrar registrar;

	ClientIdentity(OAuthSettings settings, Registrar registrar) {
		this.settings = settings;
		this.registrar = registrar;
	}

	/**
	 * The client identity to obtain a token with from the context's authorization server, in
	 * order of preference: pre-registered, a client ID metadata document, dynamic registration.
	 * @param context the resource and its authorization server
	 * @param scopes the scopes the token is requested for
	 * @return the registration
	 * @throws McpAuthorizationException when the server offers no way to identify the client,
	 * or is not the one a pre-registered client belongs to
	 */
	ClientRegistration registration(Token.Context context, Set<String> scopes) {
		AuthorizationServer server = context.server();
		OAuthSettings s = this.settings;
		String clientId;
		@Nullable String secret;
		String method;
		if (s.clientId != null) {
			// 1. pre-registered, bound to the authorization server it was registered with
			if (s.issuer != null && !s.issuer.equals(server.issuer())) {
				throw new McpAuthorizationException(s.upstream, "the client is pre-registered with '" + s.issuer
						+ "' but the upstream's authorization server is now '" + server.issuer()
						+ "'; its credentials are not sent to another authorization server", null);
			}
			clientId = s.clientId;
			secret = s.clientSecret;
			method = (s.clientAuthentication != null) ? s.clientAuthentication
					: chooseMethod(server, secret != null, s.jwk != null);
		}
		else if (s.grant == McpOAuthGrant.JWT_BEARER) {
			// RFC 7523 §3: the assertion identifies the workload, client authentication is
			// optional; workload identity federation registers no client
			return anonymous(context, scopes);
		}
		else if (s.grant == McpOAuthGrant.AUTHORIZATION_CODE && s.clientMetadataUrl != null
				&& server.supportsClientIdMetadataDocuments()) {
			// 2. a client ID metadata document: the URL is the client id, portable across servers
			clientId = s.clientMetadataUrl.toString();
			secret = null;
			method = (s.jwk != null) ? "private_key_jwt" : "none";
		}
		else if (server.registrationEndpoint() != null) {
			// 3. dynamic registration, once per authorization server
			McpRegisteredClient registered = s.store.find(s.upstream, server.issuer()).orElse(null);
			if (registered == null) {
				URI redirect = (s.grant == McpOAuthGrant.AUTHORIZATION_CODE) ? s.redirectUri : null;
				registered = this.registrar.register(server, s.clientName, redirect,
						chooseMethod(server, s.grant == McpOAuthGrant.CLIENT_CREDENTIALS, false));
				s.store.save(s.upstream, registered);
				logger.info("[" + s.upstream + "] registered client " + registered.clientId() + " with "
						+ server.issuer());
			}
			clientId = registered.clientId();
			secret = registered.clientSecret();
			method = registered.tokenEndpointAuthMethod();
		}
		else {
			throw new McpAuthorizationException(s.upstream, "the authorization server '" + server.issuer()
					+ "' offers no way to register a client (no registration_endpoint"
					+ ((s.clientMetadataUrl != null) ? ", no client ID metadata documents" : "")
					+ "); configure a pre-registered client id", null);
		}
		ClientRegistration.Builder builder = ClientRegistration.withRegistrationId(s.upstream)
			.clientId(clientId)
			.clientSecret(secret)
			.clientAuthenticationMethod(new ClientAuthenticationMethod(method))
			.tokenUri(server.tokenEndpoint().toString())
			.issuerUri(server.issuer())
			.providerConfigurationMetadata(Map.of("resource", context.resource().resource()))
			.scope(scopes);
		if (s.subjectTokens != null) {
			builder.authorizationGrantType(AuthorizationGrantType.TOKEN_EXCHANGE);
		}
		else if (s.grant == McpOAuthGrant.CLIENT_CREDENTIALS) {
			builder.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS);
		}
		else if (s.grant == McpOAuthGrant.JWT_BEARER || s.grant == McpOAuthGrant.ENTERPRISE_MANAGED) {
			builder.authorizationGrantType(AuthorizationGrantType.JWT_BEARER);
		}
		else {
			builder.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
				.redirectUri(s.redirectUri.toString())
				.authorizationUri(Objects.requireNonNull(server.authorizationEndpoint(), "authorization endpoint")
					.toString());
		}
		return builder.build();
	}

	private ClientRegistration anonymous(Token.Context context, Set<String> scopes) {
		AuthorizationServer server = context.server();
		return ClientRegistration.withRegistrationId(this.settings.upstream)
			// Spring Security needs a client id; TokenRequests leaves it out of the request
			.clientId("anonymous")
			.clientAuthenticationMethod(ClientAuthenticationMethod.NONE)
			.authorizationGrantType(AuthorizationGrantType.JWT_BEARER)
			.tokenUri(server.tokenEndpoint().toString())
			.issuerUri(server.issuer())
			.providerConfigurationMetadata(
					Map.of("resource", context.resource().resource(), TokenRequests.ANONYMOUS, Boolean.TRUE))
			.scope(scopes)
			.build();
	}

	/** The best token endpoint authentication the server supports for what the client holds. */
	static String chooseMethod(AuthorizationServer server, boolean confidential, boolean hasKey) {
		Set<String> supported = server.tokenEndpointAuthMethods();
		if (hasKey && supported.contains("private_key_jwt")) {
			return "private_key_jwt";
		}
		if (!confidential && supported.contains("none")) {
			return "none";
		}
		if (supported.contains("client_secret_basic")) {
			return "client_secret_basic";
		}
		if (supported.contains("client_secret_post")) {
			return "client_secret_post";
		}
		return supported.contains("none") ? "none" : "client_secret_basic";
	}

}
