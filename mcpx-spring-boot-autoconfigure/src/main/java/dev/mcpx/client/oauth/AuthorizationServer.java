package dev.mcpx.client.oauth;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import org.jspecify.annotations.Nullable;


/**
 * An authorization server as the client uses it: its issuer, validated metadata (or the
 * 2025-03-26 defaults) and endpoints that passed {@link SafeUrls}.
 *
 * @param issuer the issuer identifier the client recorded
 * @param metadata the validated metadata, or {@code null} when the server publishes none
 * @param authorizationEndpoint the authorization endpoint, or {@code null}
 * @param tokenEndpoint the token endpoint
 * @param registrationEndpoint the dynamic registration endpoint, or {@code null}
 */
record AuthorizationServer(String issuer, @Nullable AuthorizationServerMetadata metadata,
		@Nullable URI authorizationEndpoint, URI tokenEndpoint, @Nullable URI registrationEndpoint) {

	static AuthorizationServer of(String upstream, String issuer, AuthorizationServerMetadata metadata) {
		if (metadata.getTokenEndpointURI() == null) {
			throw new McpAuthorizationException(upstream,
					"the authorization server metadata of '" + issuer + "' has no token_endpoint", null);
		}
		return new AuthorizationServer(issuer, metadata, safe(upstream, "authorization endpoint",
				metadata.getAuthorizationEndpointURI()),
				SafeUrls.requireSafe(upstream, "token endpoint", metadata.getTokenEndpointURI()),
				safe(upstream, "registration endpoint", metadata.getRegistrationEndpointURI()));
	}

	static AuthorizationServer defaults(String upstream, String origin) {
		return new AuthorizationServer(origin, null, SafeUrls.requireSafe(upstream, "authorization endpoint",
				URI.create(origin + "/authorize")),
				SafeUrls.requireSafe(upstream, "token endpoint", URI.create(origin + "/token")),
				SafeUrls.requireSafe(upstream, "registration endpoint", URI.create(origin + "/register")));
	}

	private static @Nullable URI safe(String upstream, String what, @Nullable URI url) {
		return (url != null) ? SafeUrls.requireSafe(upstream, what, url) : null;
	}

	/**
	 * Whether PKCE with S256 is advertised. Without metadata (2025-03-26 defaults) the client
	 * proceeds with S256, which that revision requires of every server.
	 * @return {@code true} when the client may start an authorization code flow
	 */
	public boolean supportsS256() {
		if (this.metadata == null) {
			return true;
		}
		List<CodeChallengeMethod> methods = this.metadata.getCodeChallengeMethods();
		return methods != null && methods.contains(CodeChallengeMethod.S256);
	}

	/**
	 * Whether the server said it sends {@code iss} in authorization responses (RFC 9207 §3).
	 * @return the metadata's {@code authorization_response_iss_parameter_supported}
	 */
	public boolean advertisesIssParameter() {
		return this.metadata != null && this.metadata.supportsAuthorizationResponseIssuerParam();
	}

	/**
	 * Whether the server accepts client ID metadata documents.
	 * @return the metadata's {@code client_id_metadata_document_supported}
	 */
	public boolean supportsClientIdMetadataDocuments() {
		return this.metadata != null
				&& Boolean.TRUE.equals(this.metadata.getCustomParameter("client_id_metadata_document_supported"));
	}

	/**
	 * The scopes the server supports.
	 * @return its {@code scopes_supported}, empty when undefined
	 */
	public Set<String> scopesSupported() {
		if (this.metadata == null || this.metadata.getScopes() == null) {
			return Set.of();
		}
		return Set.copyOf(this.metadata.getScopes().toStringList());
	}

	/**
	 * The client authentication methods of the token endpoint; {@code client_secret_basic}
	 * when the metadata says nothing (RFC 8414 §2).
	 * @return the method names
	 */
	public Set<String> tokenEndpointAuthMethods() {
		List<ClientAuthenticationMethod> methods = (this.metadata != null)
				? this.metadata.getTokenEndpointAuthMethods() : null;
		if (methods == null || methods.isEmpty()) {
			return Set.of("client_secret_basic");
		}
		return methods.stream().map(ClientAuthenticationMethod::getValue).collect(Collectors.toUnmodifiableSet());
	}

}
