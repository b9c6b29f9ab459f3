package dev.mcpx.autoconfigure;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpClientClosedException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link McpClients} bean as a live registry in a Spring application: upstreams added
 * while it runs get {@code mcpx.defaults} and the customizers as configured ones do, and
 * configured upstreams keep their beans (docs/architecture.md, "The live registry").
 */
class McpxLiveRegistryTest {

	private static JavaSdkServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class));

	@BeforeAll
	static void start() {
		server = JavaSdkServer.start();
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void anUpstreamAddedInCodeGetsTheCustomizersAndItsEventsBecomeApplicationEventsNamingIt() {
		this.contextRunner.withPropertyValues("mcpx.clients.docs.url=" + server.url())
			.withUserConfiguration(Recording.class)
			.run((context) -> {
				McpClients clients = context.getBean(McpClients.class);
				Recording recording = context.getBean(Recording.class);

				McpClient late = clients.add("late", URI.create(server.url()), (builder) -> {
				});
				late.callTool("echo", Map.of("text", "one"));
				server.restart();
				late.callTool("echo", Map.of("text", "two"));

				assertThat(recording.customized).containsExactly("docs", "late");
				assertThat(recording.events).filteredOn(McpSessionRecoveredEvent.class::isInstance)
					.extracting(McpEvent::upstream)
					.containsExactly("late");
				assertThat(clients.names()).containsExactly("docs", "late");
				assertThat(clients.isConfigured("late")).isFalse();
			});
	}

	@Test
	void anUpstreamAddedFromPropertiesIsCheckedNamingTheProperty() {
		this.contextRunner.run((context) -> {
			McpClientConfigurer configurer = context.getBean(McpClientConfigurer.class);
			McpxProperties.Client settings = new McpxProperties.Client();
			settings.setUrl("ftp://example.org/mcp");

			assertThatThrownBy(() -> configurer.builder("tenant-7", settings))
				.isInstanceOf(InvalidMcpxPropertyException.class)
				.hasMessageContaining("mcpx.clients.tenant-7.url");

			settings.setUrl(server.url());
			McpClient added = context.getBean(McpClients.class).add(configurer.builder("tenant-7", settings).build());
			int before = server.executions("echo");
			added.callTool("echo", Map.of("text", "hi"));
			assertThat(server.executions("echo")).isEqualTo(before + 1);
			assertThat(context.getBean(McpClients.class).get("tenant-7")).isSameAs(added);
		});
	}

	@Test
	void aConfiguredUpstreamKeepsItsBeanAndWinsOverOneAddedUnderItsName() {
		this.contextRunner.withPropertyValues("mcpx.clients.docs.url=" + server.url()).run((context) -> {
			McpClients clients = context.getBean(McpClients.class);
			McpClient bean = context.getBean("docs", McpClient.class);

			McpClient answer = clients.add("docs", URI.create("http://127.0.0.1:1/mcp"), (builder) -> {
			});

			assertThat(answer).isSameAs(bean).isSameAs(clients.get("docs"));
		});
	}

	@Test
	void theBeanOfARemovedUpstreamRefusesCallsNamingIt() {
		this.contextRunner.withPropertyValues("mcpx.clients.docs.url=" + server.url()).run((context) -> {
			McpClient bean = context.getBean("docs", McpClient.class);
			bean.ping();
			int pings = server.requestCount("ping");

			context.getBean(McpClients.class).remove("docs").get(10, TimeUnit.SECONDS);

			assertThatThrownBy(bean::ping).isInstanceOf(McpClientClosedException.class)
				.hasMessageContaining("docs")
				.hasMessageContaining("removed");
			assertThat(server.requestCount("ping")).isEqualTo(pings);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Recording {

		final List<String> customized = new ArrayList<>();

		final List<McpEvent> events = new CopyOnWriteArrayList<>();

		@Bean
		McpClientCustomizer recordingCustomizer() {
			return (name, builder) -> this.customized.add(name);
		}

		@EventListener
		void on(McpEvent event) {
			this.events.add(event);
		}

	}

}
