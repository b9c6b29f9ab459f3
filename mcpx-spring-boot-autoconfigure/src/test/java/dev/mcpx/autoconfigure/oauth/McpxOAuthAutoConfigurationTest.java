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
