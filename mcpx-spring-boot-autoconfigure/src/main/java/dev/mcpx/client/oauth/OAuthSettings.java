package dev.mcpx.client.oauth;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
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

	OAuthSettings(String upstream, URI resource) {
		this.upstream = upstream;
		this.resource = resource;
	}

}
