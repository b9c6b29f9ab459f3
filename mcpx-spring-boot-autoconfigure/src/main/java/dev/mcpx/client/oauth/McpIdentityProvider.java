package dev.mcpx.client.oauth;

import java.net.URI;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The enterprise identity provider of a {@link McpOAuthGrant#ENTERPRISE_MANAGED} grant: where
 * the user's identity assertion is exchanged for an identity assertion authorization grant
 * (ID-JAG), and the client the exchange is made as (the client the user signed in to). Its
 * {@code toString()} shows no secret.
 *
 * @param tokenEndpoint the identity provider's token endpoint, https (or http on loopback)
 * @param clientId the client's id at the identity provider
 * @param clientSecret its secret there, or {@code null} for a public client
 * @param clientAuthentication {@code client_secret_basic}, {@code client_secret_post} or
 * {@code none}; {@code null} for {@code client_secret_basic} with a secret and {@code none}
 * without
 * @param subjectTokenType the RFC 8693 type of the identity assertion: {@link #ID_TOKEN} or
 * {@link #SAML2}
 */
public record McpIdentityProvider(URI tokenEndpoint, String clientId, @Nullable String clientSecret,
		@Nullable String clientAuthentication, String subjectTokenType) {

	/** An OpenID Connect ID token (RFC 8693 §3), the default identity assertion. */
	public static final String ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token";

	/** A SAML 2.0 assertion (RFC 8693 §3). */
	public static final String SAML2 = "urn:ietf:params:oauth:token-type:saml2";

	private static final Set<String> METHODS = Set.of("client_secret_basic", "client_secret_post", "none");

	/**
	 * Checks the settings.
	 * @throws IllegalArgumentException naming the setting that is not valid
	 */
	public McpIdentityProvider {
		Objects.requireNonNull(tokenEndpoint, "tokenEndpoint");
		Objects.requireNonNull(subjectTokenType, "subjectTokenType");
		if (!tokenEndpoint.isAbsolute() || tokenEndpoint.getHost() == null
				|| !("https".equalsIgnoreCase(tokenEndpoint.getScheme()) || ("http".equalsIgnoreCase(
						tokenEndpoint.getScheme()) && SafeUrls.isLoopback(tokenEndpoint.getHost())))) {
			// 2026-07-28 basic/authorization/security-considerations §Communication Security:
			// the identity assertion is a credential, sent over https only
			throw new IllegalArgumentException("the identity provider's token endpoint must be an https URL "
					+ "(http only on loopback), was '" + tokenEndpoint + "'");
		}
		if (clientId == null || clientId.isBlank()) {
			throw new IllegalArgumentException("the identity provider needs the client id the user signed in to");
		}
		if (clientAuthentication != null && !METHODS.contains(clientAuthentication)) {
			throw new IllegalArgumentException("the identity provider's client authentication must be "
					+ "client_secret_basic, client_secret_post or none, was '" + clientAuthentication + "'");
		}
		if (clientAuthentication != null && !clientAuthentication.equals("none") && clientSecret == null) {
			throw new IllegalArgumentException(
					"the identity provider's client authentication " + clientAuthentication + " needs a client secret");
		}
		if (!subjectTokenType.equals(ID_TOKEN) && !subjectTokenType.equals(SAML2)) {
			throw new IllegalArgumentException("the subject token type must be " + ID_TOKEN + " or " + SAML2
					+ ", was '" + subjectTokenType + "'");
		}
	}

	/**
	 * An identity provider whose identity assertions are ID tokens.
	 * @param tokenEndpoint its token endpoint
	 * @param clientId the client's id there
	 * @param clientSecret its secret, or {@code null} for a public client
	 * @return the identity provider
	 */
	public static McpIdentityProvider of(URI tokenEndpoint, String clientId, @Nullable String clientSecret) {
		return new McpIdentityProvider(tokenEndpoint, clientId, clientSecret, null, ID_TOKEN);
	}

	/**
	 * How the client authenticates at the token endpoint.
	 * @return the method: the one set, else {@code client_secret_basic} with a secret and
	 * {@code none} without
	 */
	public String authenticationMethod() {
		if (this.clientAuthentication != null) {
			return this.clientAuthentication;
		}
		return (this.clientSecret != null) ? "client_secret_basic" : "none";
	}

	/**
	 * Whether the identity assertion is a JWT (an ID token) the client can check before it
	 * sends it.
	 * @return {@code true} for {@link #ID_TOKEN}
	 */
	public boolean expectsJwt() {
		return this.subjectTokenType.equals(ID_TOKEN);
	}

	@Override
	public String toString() {
		return "McpIdentityProvider[tokenEndpoint=" + this.tokenEndpoint + ", clientId=" + this.clientId
				+ ", clientSecret=" + ((this.clientSecret != null) ? "(set)" : "none") + ", subjectTokenType="
				+ this.subjectTokenType + "]";
	}

}
