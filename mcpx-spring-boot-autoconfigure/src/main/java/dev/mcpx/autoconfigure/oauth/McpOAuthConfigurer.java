package dev.mcpx.autoconfigure.oauth;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Clock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import com.nimbusds.jose.jwk.JWK;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.autoconfigure.McpClientCustomizer;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Discovered;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Http;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.oauth.McpAssertionSource;
import dev.mcpx.client.oauth.McpAuthorizationHandler;
import dev.mcpx.client.oauth.McpClientRegistrationStore;
import dev.mcpx.client.oauth.McpIdentityProvider;
import dev.mcpx.client.oauth.McpOAuthCredentials;
import dev.mcpx.client.oauth.McpOAuthGrant;

/**
 * Turns {@code mcpx.clients.<name>.oauth.*} into {@link McpOAuthCredentials} for that
 * upstream's client, and for an upstream discovered in a service registry
 * {@code mcpx.discovery.services.<id>.oauth.*}, else {@code mcpx.discovery.defaults.oauth.*}
 * (whose {@code resource} names the canonical URL its instances share); a bad value fails
 * startup (or refuses that discovered service) with {@link InvalidMcpxPropertyException}
 * naming the property. Public, so an application that builds its own clients can reuse it.
 */
public final class McpOAuthConfigurer implements McpClientCustomizer {

	private final McpxUpstreams upstreams;

	private final Binder binder;

	private final McpAuthorizationHandler handler;

	private final McpClientRegistrationStore store;

	private final @Nullable ClientRegistrationRepository registrations;

	private final @Nullable OAuth2AuthorizedClientService authorizedClientService;

	private final Map<String, McpAssertionSource> assertionSources;

	/**
	 * Creates the configurer.
	 * @param upstreams the upstreams' settings, where each one's URL is read
	 * @param environment where the {@code oauth} properties are bound from
	 * @param handler the user's step of the authorization code flow
	 * @param store where dynamically registered clients are kept
	 * @param registrations Spring Security's client registrations, or {@code null}
	 */
	public McpOAuthConfigurer(McpxUpstreams upstreams, Environment environment, McpAuthorizationHandler handler,
			McpClientRegistrationStore store, @Nullable ClientRegistrationRepository registrations) {
		this(upstreams, environment, handler, store, registrations, Map.of());
	}

	/**
	 * Creates the configurer.
	 * @param upstreams the upstreams' settings, where each one's URL is read
	 * @param environment where the {@code oauth} properties are bound from
	 * @param handler the user's step of the authorization code flow
	 * @param store where dynamically registered clients are kept
	 * @param registrations Spring Security's client registrations, or {@code null}
	 * @param assertionSources the application's {@link McpAssertionSource} beans, by name
	 */
	public McpOAuthConfigurer(McpxUpstreams upstreams, Environment environment, McpAuthorizationHandler handler,
			McpClientRegistrationStore store, @Nullable ClientRegistrationRepository registrations,
			Map<String, McpAssertionSource> assertionSources) {
		this(upstreams, environment, handler, store, registrations, assertionSources, null);
	}

	/**
	 * Creates the configurer, with the users' authorized clients.
	 * @param upstreams the upstreams' settings, where each one's URL is read
	 * @param environment where the {@code oauth} properties are bound from
	 * @param handler the user's step of the authorization code flow
	 * @param store where dynamically registered clients are kept
	 * @param registrations Spring Security's client registrations, or {@code null}
	 * @param assertionSources the application's {@link McpAssertionSource} beans, by name
	 * @param authorizedClientService where Spring Security keeps the users' authorized clients,
	 * or {@code null}
	 */
	public McpOAuthConfigurer(McpxUpstreams upstreams, Environment environment, McpAuthorizationHandler handler,
			McpClientRegistrationStore store, @Nullable ClientRegistrationRepository registrations,
			Map<String, McpAssertionSource> assertionSources,
			@Nullable OAuth2AuthorizedClientService authorizedClientService) {
		this.upstreams = upstreams;
		this.binder = Binder.get(environment);
		this.handler = handler;
		this.store = store;
		this.registrations = registrations;
		this.assertionSources = Map.copyOf(assertionSources);
		this.authorizedClientService = authorizedClientService;
	}

	@Override
	public void customize(String name, McpClientBuilder builder) {
		Bound bound = properties(name);
		if (bound == null) {
			return;
		}
		McpxOAuthProperties oauth = bound.oauth();
		if (bound.discovered() && oauth.getIdentity() == McpxOAuthProperties.Identity.USER) {
			throw new InvalidMcpxPropertyException(bound.prefix() + ".identity",
					"a discovered upstream acts as the application; identity user is for an upstream with a url");
		}
		McpOAuthCredentials.Builder credentials = builder(name, bound);
		if (oauth.getIdentity() == McpxOAuthProperties.Identity.USER) {
			String prefix = bound.prefix();
			apply(prefix + ".user-sessions.max", () -> builder.userSessions(oauth.getUserSessions().getMax(),
					oauth.getUserSessions().getIdleTimeout()));
			boolean hashedIds = oauth.getUserIdInEvents() == McpxOAuthProperties.UserIdInEvents.HASHED;
			OAuth2AuthorizedClientManager authorizedClients = authorizedClients(prefix, oauth);
			if (authorizedClients != null) {
				// each user's authorized client (authorization code, granted once in the browser)
				String registrationId = Objects.requireNonNull(oauth.getRegistrationId());
				builder.userIdentity(new SecurityContextUserIdentity((principal, subjectTokens) -> new AuthorizedClientCredentials(
						name, registrationId, principal, authorizedClients, Clock.systemUTC()), hashedIds));
				return;
			}
			if (oauth.getClientId() == null && oauth.getRegistrationId() == null) {
				throw new InvalidMcpxPropertyException(prefix + ".client-id", "identity user exchanges each user's "
						+ "token with the application's own client, which needs a client-id (or a registration-id)");
			}
			// each user's credentials: a token exchange (RFC 8693) of that user's own token
			builder.userIdentity(new SecurityContextUserIdentity(
					(principal, subjectTokens) -> credentials.tokenExchange(subjectTokens).build(), hashedIds));
		}
		else {
			builder.credentials(credentials.build());
		}
	}

	/**
	 * The credentials of one upstream that acts as the application.
	 * @param name the upstream name
	 * @return its credentials, or {@code null} when it has no {@code oauth} properties
	 */
	public @Nullable McpOAuthCredentials credentials(String name) {
		Bound bound = properties(name);
		return (bound != null) ? builder(name, bound).build() : null;
	}

	/**
	 * The users' authorized clients, when the upstream names a Spring Security registration of
	 * the authorization code grant: each user authorizes once in the browser, and Spring
	 * Security keeps the grant in its {@code OAuth2AuthorizedClientService}.
	 */
	private @Nullable OAuth2AuthorizedClientManager authorizedClients(String prefix, McpxOAuthProperties oauth) {
		String id = oauth.getRegistrationId();
		ClientRegistration registration = (id != null && this.registrations != null)
				? this.registrations.findByRegistrationId(id) : null;
		if (registration == null
				|| !AuthorizationGrantType.AUTHORIZATION_CODE.equals(registration.getAuthorizationGrantType())) {
			return null;
		}
		if (this.authorizedClientService == null) {
			throw new InvalidMcpxPropertyException(prefix + ".registration-id", "identity user with the "
					+ "authorization code registration '" + id + "' needs an OAuth2AuthorizedClientService bean");
		}
		AuthorizedClientServiceOAuth2AuthorizedClientManager manager = new AuthorizedClientServiceOAuth2AuthorizedClientManager(
				Objects.requireNonNull(this.registrations), this.authorizedClientService);
		manager.setAuthorizedClientProvider(
				OAuth2AuthorizedClientProviderBuilder.builder().authorizationCode().refreshToken().build());
		return manager;
	}

	/**
	 * The upstream's {@code oauth} properties: its own under {@code mcpx.clients}, or for a
	 * discovered upstream those of its service, else those of every discovered upstream (one
	 * block or the other, whole, so a refused value names the property it came from).
	 */
	private @Nullable Bound properties(String name) {
		String own = "mcpx.clients." + name + ".oauth";
		BindResult<McpxOAuthProperties> bound = this.binder.bind(own, McpxOAuthProperties.class);
		if (bound.isBound()) {
			return new Bound(bound.get(), own, false);
		}
		if (!(this.upstreams.get(name).transport() instanceof Discovered)) {
			return null;
		}
		for (String prefix : List.of("mcpx.discovery.services." + name + ".oauth", "mcpx.discovery.defaults.oauth")) {
			bound = this.binder.bind(prefix, McpxOAuthProperties.class);
			if (bound.isBound()) {
				return new Bound(bound.get(), prefix, true);
			}
		}
		return null;
	}

	/**
	 * The resource tokens are obtained for: a configured upstream's URL; for a discovered one,
	 * whose instances each have their own, the canonical one they share (2025-11-25
	 * basic/authorization §Resource Parameter Implementation), which must be set.
	 */
	private URI resource(String name, Bound bound) {
		if (bound.discovered()) {
			URI resource = bound.oauth().getResource();
			if (resource == null) {
				throw new InvalidMcpxPropertyException(bound.prefix() + ".resource", "a discovered upstream's "
						+ "instances share the resource their tokens are for: set its canonical URL");
			}
			return resource;
		}
		if (!(this.upstreams.get(name).transport() instanceof Http http)) {
			throw new InvalidMcpxPropertyException("mcpx.clients." + name + ".url",
					"an upstream with oauth properties needs a url");
		}
		return http.url();
	}

	private McpOAuthCredentials.Builder builder(String name, Bound bound) {
		McpxOAuthProperties oauth = bound.oauth();
		String prefix = bound.prefix();
		URI resource = resource(name, bound);
		McpOAuthCredentials.Builder credentials;
		try {
			credentials = McpOAuthCredentials.builder(name, resource);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidMcpxPropertyException(prefix + ".resource",
					Objects.requireNonNullElse(ex.getMessage(), "it is not valid"));
		}
		credentials
			.authorizationHandler(this.handler)
			.registrationStore(this.store)
			.clientName(oauth.getClientName())
			.scopes(oauth.getScopes());
		McpOAuthGrant grant = oauth.getGrant();
		if (oauth.getRegistrationId() != null) {
			grant = fromRegistration(prefix, oauth.getRegistrationId(), credentials, grant);
		}
		else if (oauth.getClientId() != null) {
			credentials.client(oauth.getClientId(), oauth.getClientSecret()).issuer(oauth.getIssuer());
		}
		else if (oauth.getClientSecret() != null) {
			throw new InvalidMcpxPropertyException(prefix + ".client-id", "a client secret is set but no client id");
		}
		if (grant == McpOAuthGrant.CLIENT_CREDENTIALS && oauth.getClientId() == null
				&& oauth.getRegistrationId() == null) {
			throw new InvalidMcpxPropertyException(prefix + ".client-id",
					"the client-credentials grant needs a pre-registered client id (or a registration-id)");
		}
		credentials.grant(grant);
		if (grant == McpOAuthGrant.JWT_BEARER || grant == McpOAuthGrant.ENTERPRISE_MANAGED) {
			credentials.assertion(assertionSource(prefix, oauth, grant));
		}
		if (grant == McpOAuthGrant.ENTERPRISE_MANAGED) {
			if (oauth.getClientId() == null && oauth.getRegistrationId() == null) {
				// enterprise-managed authorization §6.1: pre-registered with the authorization
				// server, which checks the ID-JAG names that client
				throw new InvalidMcpxPropertyException(prefix + ".client-id", "the enterprise-managed grant needs "
						+ "the client id registered with the upstream's authorization server");
			}
			credentials.identityProvider(identityProvider(prefix + ".identity-provider", oauth.getIdentityProvider()));
		}
		apply(prefix + ".client-authentication", () -> credentials.clientAuthentication(oauth.getClientAuthentication()));
		apply(prefix + ".client-metadata-url", () -> credentials.clientMetadataUrl(oauth.getClientMetadataUrl()));
		URI redirectUri = oauth.getRedirectUri();
		if (redirectUri != null) {
			apply(prefix + ".redirect-uri", () -> credentials.redirectUri(redirectUri));
		}
		Resource privateKey = oauth.getPrivateKey();
		if (privateKey != null) {
			JWK key = readKey(prefix + ".private-key", privateKey);
			apply(prefix + ".private-key", () -> credentials.signingKey(key));
		}
		else if ("private_key_jwt".equals(oauth.getClientAuthentication())) {
			throw new InvalidMcpxPropertyException(prefix + ".private-key",
					"private_key_jwt client authentication needs a private key");
		}
		return credentials;
	}

	private McpAssertionSource assertionSource(String prefix, McpxOAuthProperties oauth, McpOAuthGrant grant) {
		Path file = oauth.getAssertionFile();
		String bean = oauth.getAssertionBean();
		if (file != null && bean != null) {
			throw new InvalidMcpxPropertyException(prefix + ".assertion-bean",
					"set either assertion-file or assertion-bean, not both");
		}
		if (file != null) {
			return McpAssertionSource.file(file);
		}
		if (bean != null) {
			McpAssertionSource source = this.assertionSources.get(bean);
			if (source == null) {
				throw new InvalidMcpxPropertyException(prefix + ".assertion-bean",
						"no McpAssertionSource bean named '" + bean + "'; there are " + this.assertionSources.keySet());
			}
			return source;
		}
		if (this.assertionSources.size() == 1) {
			return this.assertionSources.values().iterator().next();
		}
		throw new InvalidMcpxPropertyException(prefix + ".assertion-file", "the " + grant.name()
			.toLowerCase(java.util.Locale.ROOT)
			.replace('_', '-') + " grant needs an assertion: set assertion-file, or define an McpAssertionSource bean"
				+ (this.assertionSources.isEmpty() ? "" : " and name it in assertion-bean (there are "
						+ this.assertionSources.keySet() + ")"));
	}

	private static McpIdentityProvider identityProvider(String prefix, McpxOAuthProperties.IdentityProvider idp) {
		URI endpoint = idp.getTokenEndpoint();
		if (endpoint == null) {
			throw new InvalidMcpxPropertyException(prefix + ".token-endpoint",
					"the enterprise-managed grant needs the identity provider's token endpoint");
		}
		String clientId = idp.getClientId();
		if (clientId == null || clientId.isBlank()) {
			throw new InvalidMcpxPropertyException(prefix + ".client-id",
					"the enterprise-managed grant needs the client id at the identity provider");
		}
		String type = switch (idp.getSubjectTokenType()) {
			case "id-token", "id_token" -> McpIdentityProvider.ID_TOKEN;
			case "saml2" -> McpIdentityProvider.SAML2;
			default -> idp.getSubjectTokenType();
		};
		if (!type.equals(McpIdentityProvider.ID_TOKEN) && !type.equals(McpIdentityProvider.SAML2)) {
			throw new InvalidMcpxPropertyException(prefix + ".subject-token-type",
					"must be id-token or saml2 (or their RFC 8693 URNs), was '" + type + "'");
		}
		String method = idp.getClientAuthentication();
		if (method != null && !Set.of("client_secret_basic", "client_secret_post", "none").contains(method)) {
			throw new InvalidMcpxPropertyException(prefix + ".client-authentication",
					"must be client_secret_basic, client_secret_post or none, was '" + method + "'");
		}
		if (method != null && !method.equals("none") && idp.getClientSecret() == null) {
			throw new InvalidMcpxPropertyException(prefix + ".client-secret", method + " needs a client secret");
		}
		try {
			return new McpIdentityProvider(endpoint, clientId, idp.getClientSecret(), method, type);
		}
		catch (IllegalArgumentException ex) {
			// what is left to refuse is the endpoint
			throw new InvalidMcpxPropertyException(prefix + ".token-endpoint",
					Objects.requireNonNullElse(ex.getMessage(), "it is not valid"));
		}
	}

	private McpOAuthGrant fromRegistration(String prefix, String id, McpOAuthCredentials.Builder credentials,
			McpOAuthGrant configured) {
		ClientRegistration registration = (this.registrations != null) ? this.registrations.findByRegistrationId(id)
				: null;
		if (registration == null) {
			throw new InvalidMcpxPropertyException(prefix + ".registration-id",
					"no Spring Security client registration named '" + id + "'");
		}
		credentials.client(registration.getClientId(),
				(registration.getClientSecret() == null || registration.getClientSecret().isEmpty()) ? null
						: registration.getClientSecret())
			.clientAuthentication(registration.getClientAuthenticationMethod().getValue())
			.scopes(registration.getScopes());
		if (registration.getProviderDetails().getIssuerUri() != null) {
			credentials.issuer(registration.getProviderDetails().getIssuerUri());
		}
		AuthorizationGrantType grant = registration.getAuthorizationGrantType();
		if (AuthorizationGrantType.CLIENT_CREDENTIALS.equals(grant)) {
			return McpOAuthGrant.CLIENT_CREDENTIALS;
		}
		if (AuthorizationGrantType.AUTHORIZATION_CODE.equals(grant)) {
			if (registration.getRedirectUri() != null && !registration.getRedirectUri().contains("{")) {
				credentials.redirectUri(URI.create(registration.getRedirectUri()));
			}
			return McpOAuthGrant.AUTHORIZATION_CODE;
		}
		if (AuthorizationGrantType.JWT_BEARER.equals(grant)) {
			// the registration's client at the authorization server; how the assertion is
			// obtained is the grant property's
			return (configured == McpOAuthGrant.ENTERPRISE_MANAGED) ? configured : McpOAuthGrant.JWT_BEARER;
		}
		throw new InvalidMcpxPropertyException(prefix + ".registration-id", "client registration '" + id
				+ "' uses the " + grant.getValue()
				+ " grant; mcpx supports authorization_code, client_credentials and jwt-bearer");
	}

	private static JWK readKey(String property, Resource privateKey) {
		try (InputStream in = privateKey.getInputStream()) {
			JWK key = JWK.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
			if (!key.isPrivate()) {
				throw new InvalidMcpxPropertyException(property, "the JWK has no private part");
			}
			return key;
		}
		catch (IOException ex) {
			throw new InvalidMcpxPropertyException(property, "cannot read " + privateKey + ": " + ex.getMessage());
		}
		catch (java.text.ParseException ex) {
			// the message of a JWK parse failure never quotes the key
			throw new InvalidMcpxPropertyException(property, "not a JWK: " + ex.getMessage());
		}
	}

	/**
	 * An upstream's {@code oauth} properties and where they were bound.
	 *
	 * @param oauth the properties
	 * @param prefix the property prefix they came from, for the property a refusal names
	 * @param discovered whether they are a discovered upstream's
	 */
	private record Bound(McpxOAuthProperties oauth, String prefix, boolean discovered) {
	}

	private static void apply(String property, Runnable setting) {
		try {
			setting.run();
		}
		catch (IllegalArgumentException ex) {
			// the builder names the setting it refuses
			throw new InvalidMcpxPropertyException(property,
					Objects.requireNonNullElse(ex.getMessage(), "it is not valid"));
		}
	}

}
