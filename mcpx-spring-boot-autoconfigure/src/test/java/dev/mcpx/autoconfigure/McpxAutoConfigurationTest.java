package dev.mcpx.autoconfigure;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bean registration, customizers and startup validation of {@link McpxAutoConfiguration}.
 */
class McpxAutoConfigurationTest {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class));

	@Test
	void whenNoUpstreamIsDeclaredThenMcpClientsIsEmpty() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(McpClients.class);
			assertThat(context).doesNotHaveBean(McpClient.class);
			assertThat(context.getBean(McpClients.class)).isEmpty();
		});
	}

	@Test
	void whenTwoUpstreamsAreDeclaredThenEachIsABeanNamedAfterIt() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp",
					"mcpx.clients.docs.url=https://docs.example/mcp")
			.withUserConfiguration(QualifiedInjection.class)
			.run((context) -> {
				assertThat(context).hasBean("weather").hasBean("docs");
				McpClients clients = context.getBean(McpClients.class);
				assertThat(clients.names()).containsExactly("weather", "docs");
				assertThat(clients.get("weather").name()).isEqualTo("weather");
				assertThat(context.getBean(QualifiedInjection.class).docs).isSameAs(clients.get("docs"));
			});
	}

	/**
	 * The per-upstream beans are registered from the names alone (the settings are bound once,
	 * into McpxProperties): every name the settings bind under, a bracketed one with dots, one
	 * in capitals, and a command upstream without a URL, is a bean backed by its client.
	 */
	@Test
	void everyBoundUpstreamNameIsABean() {
		this.contextRunner
			.withPropertyValues("mcpx.clients[eu.weather].url=http://127.0.0.1:1/mcp",
					"mcpx.clients.Docs.url=https://docs.example/mcp", "mcpx.clients.local.command=node",
					"mcpx.clients.local.args[0]=server.js")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpClients clients = context.getBean(McpClients.class);
				assertThat(clients.names()).hasSize(3);
				assertThat(context.getBeanNamesForType(McpClient.class)).containsExactlyInAnyOrderElementsOf(clients.names());
				for (String name : clients.names()) {
					assertThat(context.getBean(name, McpClient.class)).isSameAs(clients.get(name));
				}
			});
	}

	/**
	 * An upstream declared only in environment variables is a bean too, under the name the
	 * settings bind under, next to one declared in a properties source.
	 */
	@Test
	void anUpstreamDeclaredInEnvironmentVariablesIsABean() {
		this.contextRunner.withPropertyValues("mcpx.clients.docs.url=https://docs.example/mcp")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new SystemEnvironmentPropertySource("test-systemEnvironment",
						Map.of("MCPX_CLIENTS_WEATHER_URL", "http://127.0.0.1:1/mcp", "MCPX_CLIENTS_WEATHER_PROTOCOL",
								"legacy"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpClients clients = context.getBean(McpClients.class);
				assertThat(clients.names()).containsExactlyInAnyOrder("docs", "weather");
				assertThat(context.getBeanNamesForType(McpClient.class)).containsExactlyInAnyOrder("docs", "weather");
				assertThat(context.getBean("weather", McpClient.class)).isSameAs(clients.get("weather"));
			});
	}

	@Test
	void theApplicationStartsWhenAnUpstreamIsDown() {
		// Port 1 refuses connections: a client that connected eagerly would fail the context.
		this.contextRunner.withPropertyValues("mcpx.clients.down.url=http://127.0.0.1:1/mcp").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean("down", McpClient.class).era()).isEmpty();
		});
	}

	@Test
	void customizersAreCalledInOrderForEveryUpstream() {
		this.contextRunner.withPropertyValues("mcpx.clients.a.url=http://127.0.0.1:1/mcp",
				"mcpx.clients.b.url=http://127.0.0.1:2/mcp")
			.withUserConfiguration(OrderedCustomizers.class)
			.run((context) -> assertThat(context.getBean(OrderedCustomizers.class).calls)
				.containsExactly("first:a", "second:a", "first:b", "second:b"));
	}

	@Test
	void aUserMcpClientsBeanWinsAndBacksThePerUpstreamBeans() {
		McpClient own = McpClient.builder("a", URI.create("http://127.0.0.1:3/mcp")).build();
		this.contextRunner.withPropertyValues("mcpx.clients.a.url=http://127.0.0.1:1/mcp")
			.withBean(McpClients.class, () -> new McpClients(List.of(own)))
			.run((context) -> {
				assertThat(context).hasSingleBean(McpClients.class);
				assertThat(context.getBean("a")).isSameAs(own);
			});
	}

	@Test
	void aMissingUrlFailsStartupNamingTheProperty() {
		assertInvalid("mcpx.clients.weather.request-timeout=5s", "mcpx.clients.weather.url", "required");
	}

	@Test
	void anEmptyUrlFailsStartupRatherThanDroppingTheUpstream() {
		assertInvalid("mcpx.clients.weather.url=", "mcpx.clients.weather.url", "required");
	}

	@Test
	void aUrlWithCredentialsFailsStartupWithoutShowingThem() {
		this.contextRunner.withPropertyValues("mcpx.clients.weather.url=https://bob:hunter2@weather.example/mcp")
			.run((context) -> {
				FailureAnalysis analysis = analysis(context.getStartupFailure());
				assertThat(analysis.getDescription()).contains("mcpx.clients.weather.url").contains("user-info")
					.doesNotContain("hunter2");
			});
	}

	@Test
	void aBadDefaultIsReportedUnderTheDefaultsProperty() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp", "mcpx.defaults.connect-timeout=-1s")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains("'mcpx.defaults.connect-timeout'")
				.contains("was -1s"));
	}

	@Test
	void anUnknownServerLogLevelFailsStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp",
					"mcpx.clients.weather.server-log-level=verbose")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains("mcpx.clients.weather.server-log-level")
				.contains("Unknown server log level 'verbose'"));
	}

	@Test
	void aServerLogLevelFromTheDefaultsIsAccepted() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp", "mcpx.defaults.server-log-level=WARNING")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void aUrlWithAnotherSchemeFailsStartupNamingTheProperty() {
		assertInvalid("mcpx.clients.weather.url=ftp://weather.example/mcp", "mcpx.clients.weather.url",
				"http or https");
	}

	@Test
	void aUrlWithoutSchemeOrHostFailsStartupNamingThePropertyWithTheBuildersReason() {
		assertInvalid("mcpx.clients.weather.url=weather.example/mcp", "mcpx.clients.weather.url", "has no scheme");
		assertInvalid("mcpx.clients.weather.url=http:///mcp", "mcpx.clients.weather.url", "has no host");
		assertInvalid("mcpx.clients.weather.url=http://weather example/mcp", "mcpx.clients.weather.url",
				"not a valid URL");
	}

	@Test
	void anUnknownServerLogLevelFromTheDefaultsIsReportedUnderTheDefaultsProperty() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp",
					"mcpx.defaults.server-log-level=verbose")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains("'mcpx.defaults.server-log-level'")
				.contains("Unknown server log level 'verbose'"));
	}

	@Test
	void aNegativeTimeoutFailsStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp",
					"mcpx.clients.weather.request-timeout=-5s")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains("mcpx.clients.weather.request-timeout")
				.contains("positive"));
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp",
					"mcpx.clients.weather.connect-timeout=0s")
			.run((context) -> assertThat(analysis(context.getStartupFailure()).getDescription())
				.contains("mcpx.clients.weather.connect-timeout"));
	}

	@Test
	void everyProtocolModeIsAccepted() {
		for (String mode : List.of("auto", "legacy", "modern", "MODERN")) {
			this.contextRunner
				.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp",
						"mcpx.clients.weather.protocol=" + mode)
				.run((context) -> assertThat(context).hasNotFailed());
		}
	}

	@Test
	void anUnknownProtocolFailsStartupNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.weather.url=http://127.0.0.1:1/mcp",
					"mcpx.clients.weather.protocol=carrier-pigeon")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("carrier-pigeon");
				assertThat(stackMessages(context.getStartupFailure())).contains("mcpx.clients.weather.protocol");
			});
	}

	private void assertInvalid(String property, String expectedProperty, String expectedProblem) {
		this.contextRunner.withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			FailureAnalysis analysis = analysis(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains(expectedProperty).contains(expectedProblem);
			assertThat(analysis.getAction()).contains(expectedProperty);
		});
	}

	private static FailureAnalysis analysis(Throwable failure) {
		assertThat(failure).isNotNull();
		FailureAnalysis analysis = new InvalidMcpxPropertyFailureAnalyzer().analyze(failure);
		assertThat(analysis).as("an analysis of %s", failure).isNotNull();
		return analysis;
	}

	private static String stackMessages(Throwable failure) {
		StringBuilder messages = new StringBuilder();
		for (Throwable t = failure; t != null; t = t.getCause()) {
			messages.append(t.getMessage()).append('\n');
		}
		return messages.toString();
	}

	@Configuration(proxyBeanMethods = false)
	static class QualifiedInjection {

		private McpClient docs;

		@Bean
		String consumer(@Qualifier("docs") McpClient docs) {
			this.docs = docs;
			return "consumer";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OrderedCustomizers {

		final List<String> calls = new ArrayList<>();

		@Bean
		@Order(2)
		McpClientCustomizer second() {
			return (name, builder) -> this.calls.add("second:" + name);
		}

		@Bean
		@Order(1)
		McpClientCustomizer first() {
			return (name, builder) -> this.calls.add("first:" + name);
		}

	}

}
