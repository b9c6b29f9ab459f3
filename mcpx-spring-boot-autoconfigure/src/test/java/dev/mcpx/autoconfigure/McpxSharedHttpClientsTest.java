package dev.mcpx.autoconfigure;

import java.lang.ref.WeakReference;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

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
class McpxSharedHttpClientsTest {

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
		// the threads themselves, not a count: an earlier test's client may release its own meanwhile
		java.util.Set<Thread> before = selectorThreadSet();
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context.getBean(McpClients.class).names()).hasSize(20);
			java.util.Set<Thread> started = selectorThreadSet();
			started.removeAll(before);
			assertThat(started).as("JDK HTTP client threads started").isEmpty();
			assertThat(context.getBean(McpHttpClients.class).builtClients()).isZero();
		});
	}

	private static java.util.Set<Thread> selectorThreadSet() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().endsWith("SelectorManager"))
			.collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
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

	/**
	 * Every builder Boot hands out comes with a request factory of its own (on the JDK, a
	 * client with its selector thread). mcpx gives each upstream a factory of its own, so it
	 * must not keep the builder's alive for the application's life.
	 */
	@Test
	void theRequestFactoryOfTheApplicationsBuilderIsNotKept() {
		List<WeakReference<ClientHttpRequestFactory>> built = new CopyOnWriteArrayList<>();
		this.contextRunner.withPropertyValues("mcpx.clients.a.url=http://127.0.0.1:1/mcp")
			.withBean(RestClientCustomizer.class, () -> (builder) -> {
				ClientHttpRequestFactory factory = new SimpleClientHttpRequestFactory();
				built.add(new WeakReference<>(factory));
				builder.requestFactory(factory);
			})
			.run((context) -> {
				assertThatThrownBy(context.getBean("a", McpClient.class)::ping).isNotNull();
				assertThat(built).as("builders taken by mcpx").hasSize(1);
				assertThat(collected(built.get(0))).as("the builder's own factory collected").isTrue();
				// and the upstream, whose builder was cloned from it, still has its client
				assertThatThrownBy(context.getBean("a", McpClient.class)::ping).isNotNull();
				assertThat(context.getBean(McpHttpClients.class).builtClients()).isEqualTo(1);
			});
	}

	/** An application's own (singleton) builder keeps its request factory for its own clients. */
	@Test
	void anApplicationsOwnBuilderIsNotChanged() {
		AtomicInteger requests = new AtomicInteger();
		ClientHttpRequestFactory counting = (uri, method) -> {
			requests.incrementAndGet();
			return new SimpleClientHttpRequestFactory().createRequest(uri, method);
		};
		RestClient.Builder application = RestClient.builder().requestFactory(counting);
		this.contextRunner.withPropertyValues("mcpx.clients.a.url=http://127.0.0.1:1/mcp")
			.withBean(RestClient.Builder.class, () -> application)
			.run((context) -> {
				assertThatThrownBy(context.getBean("a", McpClient.class)::ping).isNotNull();
				assertThat(requests).as("mcpx's request went through its own factory").hasValue(0);
				RestClient restClient = context.getBean(RestClient.Builder.class).build();
				assertThatThrownBy(() -> restClient.get().uri(URI.create("http://127.0.0.1:1/")).retrieve().toBodilessEntity())
					.isNotNull();
				assertThat(requests).as("the application's request through its builder's factory").hasValue(1);
			});
	}

	private static boolean collected(WeakReference<?> reference) throws InterruptedException {
		for (int i = 0; i < 50 && reference.get() != null; i++) {
			System.gc();
			Thread.sleep(20);
		}
		return reference.get() == null;
	}

}
