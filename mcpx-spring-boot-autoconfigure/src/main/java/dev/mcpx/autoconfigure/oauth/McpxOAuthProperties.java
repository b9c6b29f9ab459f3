package dev.mcpx.autoconfigure.oauth;

import java.net.URI;
import java.time.Duration;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.Resource;

import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.oauth.McpIdentityProvider;
import dev.mcpx.client.oauth.McpOAuthGrant;

/**
 * OAuth 2.1 authorization of one upstream, bound from {@code mcpx.clients.<name>.oauth}.
 * Any of these set turns authorization on for that upstream.
 */
public class McpxOAuthProperties {

	/**
	 * How tokens are obtained: authorization-code (a user authorizes in a browser),
	 * client-credentials (the application acts on its own behalf), jwt-bearer (the workload's
	 * own identity token, workload identity federation) or enterprise-managed (the user's
	 * identity assertion exchanged at the enterprise identity provider).
	 */
	private McpOAuthGrant grant = McpOAuthGrant.AUTHORIZATION_CODE;

	/**
	 * Whom the upstream's calls act for: application (one token for every call) or user (the
	 * user of the calling thread, whose own access token is exchanged for one for this
	 * upstream; a call without a user fails).
	 */
	private Identity identity = Identity.APPLICATION;

	/**
	 * Whether the events of an upstream whose identity is user name the user: none (events
	 * carry no user) or hashed (a salted hash of the user, the same for that user while the
	 * application runs, never the user's name).
	 */
	private UserIdInEvents userIdInEvents = UserIdInEvents.NONE;

	/**
	 * Sessions of an upstream whose identity is user: one per user, in a bounded pool.
	 */
	private final UserSessions userSessions = new UserSessions();

	/**
	 * Id of a Spring Security client registration (spring.security.oauth2.client.registration)
	 * whose client id, secret, authentication method, grant and scopes to use.
	 */
	private @Nullable String registrationId;

	/**
	 * Pre-registered client id, preferred over any other way of obtaining one.
	 */
	private @Nullable String clientId;

	/**
	 * Secret of the pre-registered client.
	 */
	private @Nullable String clientSecret;

	/**
	 * Token endpoint authentication: client_secret_basic, client_secret_post, none or
	 * private_key_jwt; by default the best the authorization server supports.
	 */
	private @Nullable String clientAuthentication;

	/**
	 * Location of the private key of private_key_jwt authentication, a JWK (JSON) with its
	 * private part.
	 */
	private @Nullable Resource privateKey;

	/**
	 * Issuer the pre-registered client belongs to; another authorization server is refused.
	 */
	private @Nullable String issuer;

	/**
	 * HTTPS URL of the client's ID metadata document, used as its client id where the
	 * authorization server supports them.
	 */
	private @Nullable URI clientMetadataUrl;

	/**
	 * Client name sent with dynamic client registration.
	 */
	private String clientName = "mcpx";

	/**
	 * Redirect URI of the authorization code flow, https or http on localhost.
	 */
	private @Nullable URI redirectUri;

	/**
	 * Scopes requested beyond those the upstream asks for.
	 */
	private Set<String> scopes = new LinkedHashSet<>();

	/**
	 * Resource the tokens are for (RFC 8707), the canonical URL every instance of a discovered
	 * upstream accepts tokens for; required under mcpx.discovery, where an upstream has no URL
	 * of its own.
	 */
	private @Nullable URI resource;

	public Identity getIdentity() {
		return this.identity;
	}

	public void setIdentity(Identity identity) {
		this.identity = identity;
	}

	public UserIdInEvents getUserIdInEvents() {
		return this.userIdInEvents;
	}

	public void setUserIdInEvents(UserIdInEvents userIdInEvents) {
		this.userIdInEvents = userIdInEvents;
	}

	public UserSessions getUserSessions() {
		return this.userSessions;
	}
	/**
	 * File holding the assertion of the jwt-bearer grant (the workload's token, such as a
	 * projected service account token) or of the enterprise-managed grant (the identity
	 * assertion), read again at every grant.
	 */
	private @Nullable Path assertionFile;

	/**
	 * Name of the McpAssertionSource bean that supplies the assertion, when it is not read
	 * from a file; by default the only such bean.
	 */
	private @Nullable String assertionBean;

	/**
	 * Enterprise identity provider of the enterprise-managed grant.
	 */
	private final IdentityProvider identityProvider = new IdentityProvider();

	public McpOAuthGrant getGrant() {
		return this.grant;
	}

	public void setGrant(McpOAuthGrant grant) {
		this.grant = grant;
	}

	public @Nullable String getRegistrationId() {
		return this.registrationId;
	}

	public void setRegistrationId(@Nullable String registrationId) {
		this.registrationId = registrationId;
	}

	public @Nullable String getClientId() {
		return this.clientId;
	}

	public void setClientId(@Nullable String clientId) {
		this.clientId = clientId;
	}

	public @Nullable String getClientSecret() {
		return this.clientSecret;
	}

	public void setClientSecret(@Nullable String clientSecret) {
		this.clientSecret = clientSecret;
	}

	public @Nullable String getClientAuthentication() {
		return this.clientAuthentication;
	}

	public void setClientAuthentication(@Nullable String clientAuthentication) {
		this.clientAuthentication = clientAuthentication;
	}

	public @Nullable Resource getPrivateKey() {
		return this.privateKey;
	}

	public void setPrivateKey(@Nullable Resource privateKey) {
		this.privateKey = privateKey;
	}

	public @Nullable String getIssuer() {
		return this.issuer;
	}

	public void setIssuer(@Nullable String issuer) {
		this.issuer = issuer;
	}

	public @Nullable URI getResource() {
		return this.resource;
	}

	public void setResource(@Nullable URI resource) {
		this.resource = resource;
	}

	public @Nullable URI getClientMetadataUrl() {
		return this.clientMetadataUrl;
	}

	public void setClientMetadataUrl(@Nullable URI clientMetadataUrl) {
		this.clientMetadataUrl = clientMetadataUrl;
	}

	public String getClientName() {
		return this.clientName;
	}

	public void setClientName(String clientName) {
		this.clientName = clientName;
	}

	public @Nullable URI getRedirectUri() {
		return this.redirectUri;
	}

	public void setRedirectUri(@Nullable URI redirectUri) {
		this.redirectUri = redirectUri;
	}

	public Set<String> getScopes() {
		return this.scopes;
	}

	public void setScopes(Set<String> scopes) {
		this.scopes = scopes;
	}

	public @Nullable Path getAssertionFile() {
		return this.assertionFile;
	}

	public void setAssertionFile(@Nullable Path assertionFile) {
		this.assertionFile = assertionFile;
	}

	public @Nullable String getAssertionBean() {
		return this.assertionBean;
	}

	public void setAssertionBean(@Nullable String assertionBean) {
		this.assertionBean = assertionBean;
	}

	public IdentityProvider getIdentityProvider() {
		return this.identityProvider;
	}

	@Override
	public String toString() {
		// the secret stays out of logs
		return "McpxOAuthProperties[grant=" + this.grant + ", identity=" + this.identity + ", clientId=" + this.clientId + ", clientSecret="
				+ ((this.clientSecret != null) ? "(set)" : "none") + "]";
	}

	/** Whom an upstream's calls act for. */
	public enum Identity {

		/** The application: one token for every call, whoever makes it. */
		APPLICATION,

		/** The user of the calling thread (Spring Security's SecurityContext), never the application. */
		USER

	}

	/** Whether a per-user upstream's events name the user. */
	public enum UserIdInEvents {

		/** Events carry no user. */
		NONE,

		/** Events carry a salted hash of the user, never the user's name. */
		HASHED

	}

	/** The pool of users' sessions of an upstream that acts for each user. */
	public static class UserSessions {

		/**
		 * Most users with a session at once; the least recently used idle one is ended to make room.
		 */
		private int max = McpClientBuilder.DEFAULT_MAX_USER_SESSIONS;

		/**
		 * How long an idle user's session is kept before it is ended.
		 */
		private Duration idleTimeout = McpClientBuilder.DEFAULT_USER_SESSION_IDLE_TIMEOUT;

		public int getMax() {
			return this.max;
		}

		public void setMax(int max) {
			this.max = max;
		}

		public Duration getIdleTimeout() {
			return this.idleTimeout;
		}

		public void setIdleTimeout(Duration idleTimeout) {
			this.idleTimeout = idleTimeout;
		}

	}

	/**
	 * The enterprise identity provider where the identity assertion is exchanged for an
	 * identity assertion authorization grant (RFC 8693 token exchange).
	 */
	public static class IdentityProvider {

		/**
		 * Token endpoint of the identity provider, https (or http on loopback).
		 */
		private @Nullable URI tokenEndpoint;

		/**
		 * Client id at the identity provider (the client the user signed in to).
		 */
		private @Nullable String clientId;

		/**
		 * Client secret at the identity provider.
		 */
		private @Nullable String clientSecret;

		/**
		 * Token endpoint authentication at the identity provider: client_secret_basic,
		 * client_secret_post or none; by default client_secret_basic with a secret, none
		 * without.
		 */
		private @Nullable String clientAuthentication;

		/**
		 * RFC 8693 type of the identity assertion: an ID token or a SAML 2.0 assertion.
		 */
		private String subjectTokenType = McpIdentityProvider.ID_TOKEN;

		public @Nullable URI getTokenEndpoint() {
			return this.tokenEndpoint;
		}

		public void setTokenEndpoint(@Nullable URI tokenEndpoint) {
			this.tokenEndpoint = tokenEndpoint;
		}

		public @Nullable String getClientId() {
			return this.clientId;
		}

		public void setClientId(@Nullable String clientId) {
			this.clientId = clientId;
		}

		public @Nullable String getClientSecret() {
			return this.clientSecret;
		}

		public void setClientSecret(@Nullable String clientSecret) {
			this.clientSecret = clientSecret;
		}

		public @Nullable String getClientAuthentication() {
			return this.clientAuthentication;
		}

		public void setClientAuthentication(@Nullable String clientAuthentication) {
			this.clientAuthentication = clientAuthentication;
		}

		public String getSubjectTokenType() {
			return this.subjectTokenType;
		}

		public void setSubjectTokenType(String subjectTokenType) {
			this.subjectTokenType = subjectTokenType;
		}

		@Override
		public String toString() {
			return "IdentityProvider[tokenEndpoint=" + this.tokenEndpoint + ", clientId=" + this.clientId
					+ ", clientSecret=" + ((this.clientSecret != null) ? "(set)" : "none") + "]";
		}

	}

}
