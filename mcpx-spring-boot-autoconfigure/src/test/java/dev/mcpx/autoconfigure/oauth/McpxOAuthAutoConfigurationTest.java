package dev.mcpx.autoconfigure.oauth;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.oauth.McpAssertionSource;
import dev.mcpx.client.oauth.McpAuthorizationHandler;
import dev.mcpx.client.oauth.McpClientRegistrationStore;
import dev.mcpx.client.oauth.McpOAuthCredentials;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link McpxOAuthAutoConfiguration}: {@code mcpx.clients.<name>.oauth.*} gives that upstream
 * OAuth credentials, a bad value fails startup naming the property, and without Spring
 * Security on the classpath nothing changes.
 */
class McpxOAuthAutoConfigurationTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxOAuthAutoConfiguration.class))
		.withPropertyValues("mcpx.clients.guarded.url=https://mcp.example.com/mcp",
				"mcpx.clients.open.url=https://open.example.com/mcp");

	@Test
	void withoutSpringSecurityOnTheClasspathNothingChanges() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ClientRegistration.class))
			.withPropertyValues("mcpx.clients.guarded.oauth.client-id=ignored")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(McpOAuthConfigurer.class)
					.doesNotHaveBean(McpClientRegistrationStore.class);
				assertThat(context.getBean(McpClients.class).names()).containsExactly("guarded", "open");
			});
	}

	@Test
	void anUpstreamWithOAuthPropertiesGetsOAuthCredentialsAndOneWithoutGetsNone() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.guarded.oauth.grant=client-credentials",
					"mcpx.clients.guarded.oauth.client-id=app", "mcpx.clients.guarded.oauth.client-secret=s3cret")
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(McpClientRegistrationStore.class);
				McpOAuthConfigurer configurer = context.getBean(McpOAuthConfigurer.class);
				McpOAuthCredentials credentials = configurer.credentials("guarded");
				assertThat(credentials).isNotNull();
				assertThat(credentials.toString()).contains("CLIENT_CREDENTIALS").doesNotContain("s3cret");
				assertThat(configurer.credentials("open")).isNull();
			});
	}

	@Test
	void userBeansForTheHandlerAndTheStoreAreUsed() {
		McpClientRegistrationStore store = McpClientRegistrationStore.inMemory();
		McpAuthorizationHandler handler = (request) -> request.redirectUri();
		this.contextRunner.withBean(McpClientRegistrationStore.class, () -> store)
			.withBean(McpAuthorizationHandler.class, () -> handler)
			.withPropertyValues("mcpx.clients.guarded.oauth.redirect-uri=http://localhost:8080/callback")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpClientRegistrationStore.class)).isSameAs(store);
				assertThat(context.getBean(McpOAuthConfigurer.class).credentials("guarded")).isNotNull();
			});
	}

	@Test
	void aSpringSecurityClientRegistrationCanBeNamed() {
		ClientRegistration registration = ClientRegistration.withRegistrationId("machine")
			.clientId("machine-client")
			.clientSecret("machine-secret")
			.clientAuthenticationMethod(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
			.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
			.tokenUri("https://auth.example.com/token")
			.scope("mcp")
			.build();
		this.contextRunner
			.withBean(InMemoryClientRegistrationRepository.class,
					() -> new InMemoryClientRegistrationRepository(registration))
			.withPropertyValues("mcpx.clients.guarded.oauth.registration-id=machine")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpOAuthConfigurer.class).credentials("guarded").toString())
					.contains("CLIENT_CREDENTIALS");
			});
	}

	@Test
	void aJwtBearerUpstreamReadsItsWorkloadTokenFileOrTheAssertionSourceBean() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.guarded.oauth.grant=jwt-bearer",
					"mcpx.clients.guarded.oauth.assertion-file=/var/run/secrets/tokens/mcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpOAuthConfigurer.class).credentials("guarded").toString())
					.contains("JWT_BEARER");
			});
		McpAssertionSource source = () -> "assertion";
		this.contextRunner.withBean("workloadToken", McpAssertionSource.class, () -> source)
			.withPropertyValues("mcpx.clients.guarded.oauth.grant=jwt-bearer")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void anEnterpriseManagedUpstreamNamesItsIdentityProvider() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.guarded.oauth.grant=enterprise-managed",
					"mcpx.clients.guarded.oauth.client-id=app", "mcpx.clients.guarded.oauth.client-secret=s3cret",
					"mcpx.clients.guarded.oauth.assertion-bean=idToken",
					"mcpx.clients.guarded.oauth.identity-provider.token-endpoint=https://idp.example.com/token",
					"mcpx.clients.guarded.oauth.identity-provider.client-id=sso-app",
					"mcpx.clients.guarded.oauth.identity-provider.client-secret=idp-s3cret")
			.withBean("idToken", McpAssertionSource.class, () -> () -> "id-token")
			.withBean("other", McpAssertionSource.class, () -> () -> "other")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpOAuthConfigurer.class).credentials("guarded").toString())
					.contains("ENTERPRISE_MANAGED")
					.doesNotContain("s3cret");
			});
	}

	@Test
	void anAssertionGrantWithoutWhatItNeedsFailsStartupNamingTheProperty() {
		assertFails("mcpx.clients.guarded.oauth.assertion-file", "mcpx.clients.guarded.oauth.grant=jwt-bearer");
		assertFails("mcpx.clients.guarded.oauth.assertion-bean", "mcpx.clients.guarded.oauth.grant=jwt-bearer",
				"mcpx.clients.guarded.oauth.assertion-bean=nope");
		assertFails("mcpx.clients.guarded.oauth.assertion-bean", "mcpx.clients.guarded.oauth.grant=jwt-bearer",
				"mcpx.clients.guarded.oauth.assertion-file=/token", "mcpx.clients.guarded.oauth.assertion-bean=b");
		String[] enterprise = { "mcpx.clients.guarded.oauth.grant=enterprise-managed",
				"mcpx.clients.guarded.oauth.assertion-file=/id-token" };
		assertFails("mcpx.clients.guarded.oauth.client-id", enterprise);
		String[] registered = { enterprise[0], enterprise[1], "mcpx.clients.guarded.oauth.client-id=app" };
		assertFails("mcpx.clients.guarded.oauth.identity-provider.token-endpoint", registered);
		assertFails("mcpx.clients.guarded.oauth.identity-provider.client-id", with(registered,
				"mcpx.clients.guarded.oauth.identity-provider.token-endpoint=https://idp.example.com/token"));
		String[] complete = with(registered,
				"mcpx.clients.guarded.oauth.identity-provider.token-endpoint=https://idp.example.com/token",
				"mcpx.clients.guarded.oauth.identity-provider.client-id=sso");
		assertFails("mcpx.clients.guarded.oauth.identity-provider.token-endpoint", with(registered,
				"mcpx.clients.guarded.oauth.identity-provider.token-endpoint=http://idp.example.com/token",
				"mcpx.clients.guarded.oauth.identity-provider.client-id=sso"));
		assertFails("mcpx.clients.guarded.oauth.identity-provider.subject-token-type",
				with(complete, "mcpx.clients.guarded.oauth.identity-provider.subject-token-type=access-token"));
		assertFails("mcpx.clients.guarded.oauth.identity-provider.client-secret",
				with(complete, "mcpx.clients.guarded.oauth.identity-provider.client-authentication=client_secret_post"));
		this.contextRunner.withPropertyValues(complete).run((context) -> assertThat(context).hasNotFailed());
	}

	private static String[] with(String[] values, String... more) {
		String[] all = java.util.Arrays.copyOf(values, values.length + more.length);
		System.arraycopy(more, 0, all, values.length, more.length);
		return all;
	}

	@Test
	void badValuesFailStartupNamingTheProperty() {
		assertFails("mcpx.clients.guarded.oauth.client-id", "mcpx.clients.guarded.oauth.grant=client-credentials");
		assertFails("mcpx.clients.guarded.oauth.client-id", "mcpx.clients.guarded.oauth.client-secret=orphan");
		assertFails("mcpx.clients.guarded.oauth.client-authentication",
				"mcpx.clients.guarded.oauth.client-id=app", "mcpx.clients.guarded.oauth.client-authentication=magic");
		assertFails("mcpx.clients.guarded.oauth.redirect-uri",
				"mcpx.clients.guarded.oauth.redirect-uri=http://app.example.com/callback");
		assertFails("mcpx.clients.guarded.oauth.client-metadata-url",
				"mcpx.clients.guarded.oauth.client-metadata-url=http://app.example.com/client.json");
		assertFails("mcpx.clients.guarded.oauth.registration-id", "mcpx.clients.guarded.oauth.registration-id=nope");
		assertFails("mcpx.clients.guarded.oauth.private-key", "mcpx.clients.guarded.oauth.client-id=app",
				"mcpx.clients.guarded.oauth.client-authentication=private_key_jwt");
		assertFails("mcpx.clients.guarded.oauth.private-key", "mcpx.clients.guarded.oauth.client-id=app",
				"mcpx.clients.guarded.oauth.private-key=classpath:application.properties");
	}

	private void assertFails(String property, String... values) {
		this.contextRunner.withPropertyValues(values).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidMcpxPropertyException.class)
				.satisfies((failure) -> assertThat(((InvalidMcpxPropertyException) failure).property())
					.isEqualTo(property));
		});
	}

}
