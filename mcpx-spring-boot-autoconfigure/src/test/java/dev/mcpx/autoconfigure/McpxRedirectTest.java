package dev.mcpx.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A redirect never carries the client's credentials or session to another origin: the
 * client does not follow redirects at all, with Boot's HTTP client settings or its own.
 */
class McpxRedirectTest {

	@RegisterExtension
	static McpWireMock upstream = McpWireMock.plain();

	@RegisterExtension
	static McpWireMock elsewhere = McpWireMock.plain();

	private static void redirectEverything() {
		upstream.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(307)
			.withHeader("Location", elsewhere.baseUrl() + "/steal")));
	}

	@Test
	void theAutoConfiguredClientDoesNotFollowARedirectToAnotherOrigin() {
		redirectEverything();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class))
			.withPropertyValues("mcpx.clients.up.url=" + upstream.mcpUrl(), "mcpx.clients.up.protocol=legacy",
					"mcpx.clients.up.headers.Authorization=Bearer sekret",
					// Even when the application asks its HTTP clients to follow redirects.
					"spring.http.clients.redirects=follow")
			.run((context) -> assertThatThrownBy(context.getBean("up", McpClient.class)::ping)
				.isInstanceOf(McpHttpStatusException.class)
				.hasMessageContaining("307"));

		elsewhere.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void theJdkClientOfTheApplicationDoesNotFollowARedirectEither() {
		redirectEverything();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class))
			.withBean(org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder.class,
					org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder::jdk)
			.withBean(org.springframework.boot.http.client.HttpClientSettings.class,
					() -> org.springframework.boot.http.client.HttpClientSettings.defaults()
						.withRedirects(org.springframework.boot.http.client.HttpRedirects.FOLLOW))
			.withPropertyValues("mcpx.clients.up.url=" + upstream.mcpUrl(), "mcpx.clients.up.protocol=legacy")
			.run((context) -> assertThatThrownBy(context.getBean("up", McpClient.class)::ping)
				.isInstanceOf(McpHttpStatusException.class)
				.hasMessageContaining("307"));

		elsewhere.verify(0, anyRequestedFor(anyUrl()));
	}

	@Test
	void aClientBuiltByHandDoesNotFollowARedirectEither() {
		redirectEverything();
		try (McpClient client = McpClient.builder("up", upstream.mcpUri())
			.protocol(ProtocolMode.LEGACY)
			.header("Authorization", "Bearer sekret")
			.build()) {
			assertThatThrownBy(client::ping).isInstanceOf(McpHttpStatusException.class).hasMessageContaining("307");
		}

		elsewhere.verify(0, anyRequestedFor(anyUrl()));
	}

}
