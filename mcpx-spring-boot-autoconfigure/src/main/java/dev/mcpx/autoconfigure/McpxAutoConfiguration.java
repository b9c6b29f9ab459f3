package dev.mcpx.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.JdkHttpClientBuilder;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.client.RestClient;

import dev.mcpx.autoconfigure.tasks.McpTaskJournalMonitor;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpClientsListener;
import dev.mcpx.client.McpHttpClients;
import dev.mcpx.client.McpInputHandler;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.event.McpUpstreamChangedEvent;
import dev.mcpx.client.recovery.ReplayGate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of mcpx: one {@link McpClient} bean per upstream declared under
 * {@code mcpx.clients}, named after it, and an {@link McpClients} bean holding them all.
 * Clients connect on first use, so the application starts while an upstream is down.
 * Their recovery events, and each change of the live set ({@link McpUpstreamChangedEvent}),
 * are published as application events; a {@link ReplayGate} bean
 * replaces the default replay decision, a {@link McpCredentialsProvider} bean supplies
 * refreshable credentials, a {@link McpInputHandler} bean answers the input servers
 * ask for, and {@link McpClientCustomizer} beans adjust each builder.
 */
@AutoConfiguration(after = RestClientAutoConfiguration.class,
		afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@EnableConfigurationProperties(McpxProperties.class)
@Import(McpClientBeanRegistrar.class)
public final class McpxAutoConfiguration {

	/** The held builder's request factory: never used, since every clone gets its own. */
	private static final ClientHttpRequestFactory REPLACED_PER_UPSTREAM = (uri, method) -> {
		throw new IllegalStateException("mcpx gives every upstream's RestClient a request factory of its own");
	};

	/** The JDK clients of the upstreams, shared by equal HTTP settings, closed with the context. */
	@Bean
	@ConditionalOnMissingBean
	McpHttpClients mcpHttpClients() {
		return new McpHttpClients();
	}

	/** Every upstream's settings, resolved once; what the configurer and the Spring AI bridge read. */
	@Bean
	@ConditionalOnMissingBean
	McpxUpstreams mcpxUpstreams(McpxProperties properties, ObjectProvider<SslBundles> sslBundles) {
		return new McpxUpstreams(properties, sslBundles.getIfAvailable());
	}

	@Bean
	@ConditionalOnMissingBean
	McpClientConfigurer mcpClientConfigurer(McpxUpstreams upstreams, McpHttpClients httpClients,
			ObjectProvider<McpClientCustomizer> customizers, ObjectProvider<RestClient.Builder> restClientBuilder,
			ObjectProvider<ClientHttpRequestFactoryBuilder<?>> requestFactoryBuilder,
			ObjectProvider<HttpClientSettings> httpClientSettings, ObjectProvider<JsonMapper> jsonMapper,
			ObjectProvider<ReplayGate> replayGate, ObjectProvider<McpCredentialsProvider> credentials,
			ObjectProvider<McpInputHandler> inputHandler, ObjectProvider<ObservationRegistry> observationRegistry,
			ObjectProvider<McpTaskStore> taskStore, ObjectProvider<McpTaskJournalMonitor> taskJournalMonitor,
			ApplicationEventPublisher eventPublisher) {
		List<McpClientCustomizer> ordered = new ArrayList<>();
		// Recovery events become application events, for @EventListener methods.
		ordered.add((name, builder) -> builder.eventListener(eventPublisher::publishEvent));
		jsonMapper.ifAvailable((mapper) -> ordered.add((name, builder) -> builder.jsonMapper(mapper)));
		replayGate.ifAvailable((gate) -> ordered.add((name, builder) -> builder.replayGate(gate)));
		inputHandler.ifAvailable((handler) -> ordered.add((name, builder) -> builder.inputHandler(handler)));
		observationRegistry
			.ifAvailable((registry) -> ordered.add((name, builder) -> builder.observationRegistry(registry)));
		credentials.ifAvailable((provider) -> ordered.add((name, builder) -> builder.credentials(provider.credentials(name))));
		// The task journal is asked for when a client is built, after every auto-configuration ran; its
		// writes are watched, for the journal's health.
		ordered.add((name, builder) -> taskStore.ifAvailable((store) -> {
			McpTaskJournalMonitor monitor = taskJournalMonitor.getIfAvailable();
			builder.taskStore((monitor != null) ? monitor.watch(store) : store);
		}));
		customizers.orderedStream().forEach(ordered::add);
		ClientHttpRequestFactoryBuilder<?> factoryBuilder = requestFactoryBuilder
			.getIfAvailable(ClientHttpRequestFactoryBuilder::detect);
		HttpClientSettings settings = httpClientSettings.getIfAvailable(HttpClientSettings::defaults);
		// The application's builder, cloned per upstream, each clone given mcpx's request
		// factory. Held as a clone without a request factory of its own: Boot builds one into
		// every builder it hands out (a JDK client with its selector thread, which would live as
		// long as the application if held here), and an application's own builder is not
		// changed.
		Supplier<RestClient.Builder> applicationBuilder = SingletonSupplier.of(() -> restClientBuilder
			.getIfAvailable(RestClient::builder)
			.clone()
			.requestFactory(REPLACED_PER_UPSTREAM));
		return new McpClientConfigurer(upstreams, ordered, (connectTimeout, sslBundle) -> {
			// The client enforces its own request deadlines, so no read timeout; and never
			// follows redirects, which could carry credentials to another origin.
			HttpClientSettings upstream = withSsl(settings, sslBundle).withConnectTimeout(connectTimeout)
				.withReadTimeout(null)
				.withRedirects(HttpRedirects.DONT_FOLLOW);
			return applicationBuilder.get()
				.clone()
				.requestFactory(requestFactory(factoryBuilder, upstream, httpClients));
		});
	}

	@Bean
	@ConditionalOnMissingBean
	McpClients mcpClients(McpClientConfigurer configurer, McpxUpstreams upstreams,
			ApplicationEventPublisher eventPublisher) {
		List<McpClient> clients = new ArrayList<>();
		try {
			configurer.builders().values().stream().map(McpClientBuilder::build).forEach(clients::add);
		}
		catch (RuntimeException ex) {
			clients.forEach(McpClient::close);
			throw ex;
		}
		// upstreams added in code get mcpx.defaults before their own settings, the customizers after
		McpClients live = new McpClients(clients, new McpClients.Preparation() {

			@Override
			public void beforeSettings(String name, McpClientBuilder builder) {
				configurer.applyDefaults(name, builder);
			}

			@Override
			public void afterSettings(String name, McpClientBuilder builder) {
				configurer.customize(name, builder);
			}

		});
		// nothing is kept of an upstream that left (a configured one is resolved again if asked);
		// each change of the live set becomes an application event, as the clients' events do
		live.addListener(new McpClientsListener() {

			@Override
			public void removed(McpClient client) {
				upstreams.forget(client.name());
			}

			@Override
			public void changed(McpUpstreamChangedEvent event) {
				eventPublisher.publishEvent(event);
			}

		});
		return live;
	}

	@Bean
	@ConditionalOnMissingBean
	McpCatalogueEventBridge mcpCatalogueEventBridge(McpClients clients) {
		return new McpCatalogueEventBridge(clients);
	}

	private static HttpClientSettings withSsl(HttpClientSettings settings, @Nullable SslBundle sslBundle) {
		return (sslBundle != null) ? settings.withSslBundle(sslBundle) : settings;
	}

	/**
	 * The application's HTTP client, with the upstream's settings. On the JDK client (Boot's
	 * choice when no other HTTP library is present) requests are sent blocking with byte
	 * bodies, which on loopback is several times faster than Spring's streaming request
	 * factory; with {@link McpHttpClients#sharedClientDefaults the shared client's
	 * defaults}; and one JDK client per distinct settings, built on first use, so that idle
	 * upstreams cost no threads of their own.
	 */
	private static ClientHttpRequestFactory requestFactory(ClientHttpRequestFactoryBuilder<?> builder,
			HttpClientSettings settings, McpHttpClients httpClients) {
		if (builder instanceof JdkClientHttpRequestFactoryBuilder) {
			return httpClients.requestFactory(settings, () -> new JdkHttpClientBuilder()
				.withCustomizer(McpHttpClients::sharedClientDefaults)
				.build(settings));
		}
		return builder.build(settings);
	}

}
