package dev.mcpx.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpHttpClients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The upstreams of an application share one JDK HTTP client per distinct HTTP settings,
 * built when the first of them sends a request and released with the context. Port 1
 * refuses connections: a call there fails, but only after it built its client.
 */
class McpxSharedHttpClientsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class))
		// the JDK client, Boot's choice when no other HTTP library is on the classpath
		.withBean(ClientHttpRequestFactoryBuilder.class, ClientHttpRequestFactoryBuilder::jdk);

	@Test
	void upstreamsWithEqualSettingsShareOneClientBuiltOnFirstUse() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.a.url=http://127.0.0.1:1/mcp", "mcpx.clients.b.url=http://127.0.0.1:1/other",
					"mcpx.clients.c.url=http://localhost:1/mcp")
			.run((context) -> {
				McpHttpClients clients = context.getBean(McpHttpClients.class);
				assertThat(clients.builtClients()).as("before any request").isZero();
				for (String name : new String[] { "a", "b", "c" }) {
					assertThatThrownBy(context.getBean(name, McpClient.class)::ping).isNotNull();
				}
				assertThat(clients.builtClients()).as("after a request of each upstream").isEqualTo(1);
			});
	}

	/**
	 * Twenty upstreams start no HTTP client threads: not one per upstream, and not even the
	 * JDK client of the application's {@code RestClient.Builder} (with its TLS context), which
	 * is taken when the first upstream sends its first request.
	 */
	@Test
	void configuringUpstreamsBuildsNoHttpClientBeforeFirstUse() {
		String[] properties = new String[20];
		for (int i = 0; i < properties.length; i++) {
			properties[i] = "mcpx.clients.u" + i + ".url=http://127.0.0.1:1/mcp";
		}
		long before = selectorThreads();
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context.getBean(McpClients.class).names()).hasSize(20);
			assertThat(selectorThreads() - before).as("JDK HTTP client threads started").isZero();
			assertThat(context.getBean(McpHttpClients.class).builtClients()).isZero();
		});
	}

	private static long selectorThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().endsWith("SelectorManager"))
			.count();
	}

	@Test
	void upstreamsWithDifferentSettingsDoNotShare() {
		this.contextRunner
			.withPropertyValues("mcpx.clients.a.url=http://127.0.0.1:1/mcp", "mcpx.clients.b.url=http://127.0.0.1:1/mcp",
					"mcpx.clients.b.connect-timeout=2s")
			.run((context) -> {
				for (String name : new String[] { "a", "b" }) {
					assertThatThrownBy(context.getBean(name, McpClient.class)::ping).isNotNull();
				}
				assertThat(context.getBean(McpHttpClients.class).builtClients()).isEqualTo(2);
			});
	}

	@Test
	void theClientsAreReleasedWithTheContext() {
		McpHttpClients[] held = new McpHttpClients[1];
		this.contextRunner.withPropertyValues("mcpx.clients.a.url=http://127.0.0.1:1/mcp").run((context) -> {
			held[0] = context.getBean(McpHttpClients.class);
			assertThatThrownBy(context.getBean("a", McpClient.class)::ping).isNotNull();
			assertThat(held[0].builtClients()).isEqualTo(1);
		});
		assertThat(held[0].builtClients()).as("after the context closed").isZero();
	}

}
