package dev.mcpx.client.oauth;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import java.util.Set;

import com.nimbusds.jose.jwk.JWK;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one upstream's credentials, set by {@link McpOAuthCredentials.Builder}
 * and fixed once the credentials are built.
 */
final class OAuthSettings {

	final String upstream;

	final URI resource;

	McpOAuthGrant grant = McpOAuthGrant.AUTHORIZATION_CODE;

	@Nullable String clientId;

	@Nullable String clientSecret;

	@Nullable String clientAuthentication;

	@Nullable JWK jwk;

	@Nullable McpAssertionSource assertion;

	@Nullable McpIdentityProvider identityProvider;

	@Nullable String issuer;

	@Nullable URI clientMetadataUrl;

	String clientName = "mcpx";

	URI redirectUri = URI.create("http://127.0.0.1/mcpx/oauth/callback");

	Set<String> scopes = Set.of();

	McpAuthorizationHandler handler = McpAuthorizationHandler.headless();

	McpClientRegistrationStore store = McpClientRegistrationStore.inMemory();

	Duration connectTimeout = Duration.ofSeconds(5);

	Duration readTimeout = Duration.ofSeconds(10);

	Clock clock = Clock.systemUTC();

	/**
	 * The user's own access token on the calling thread, for a token exchange (RFC 8693) in
	 * place of the grant; absent when the credentials act as the application.
	 */
	@Nullable Supplier<@Nullable McpSubjectToken> subjectTokens;

	OAuthSettings(String upstream, URI resource) {
		this.upstream = upstream;
		this.resource = resource;
	}

	/**
	 * A copy for credentials being built: a builder that goes on to build others changes none.
	 * Every field is copied; a new field is added here too.
	 */
	OAuthSettings copy() {
		OAuthSettings copy = new OAuthSettings(this.upstream, this.resource);
		copy.grant = this.grant;
		copy.clientId = this.clientId;
		copy.clientSecret = this.clientSecret;
		copy.clientAuthentication = this.clientAuthentication;
		copy.jwk = this.jwk;
		copy.assertion = this.assertion;
		copy.identityProvider = this.identityProvider;
		copy.issuer = this.issuer;
		copy.clientMetadataUrl = this.clientMetadataUrl;
		copy.clientName = this.clientName;
		copy.redirectUri = this.redirectUri;
		copy.scopes = this.scopes;
		copy.handler = this.handler;
		copy.store = this.store;
		copy.connectTimeout = this.connectTimeout;
		copy.readTimeout = this.readTimeout;
		copy.clock = this.clock;
		copy.subjectTokens = this.subjectTokens;
		return copy;
	}

}
