package dev.mcpx.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.web.client.RestClient;

import dev.mcpx.autoconfigure.McpUpstreamSettings.Discovered;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Http;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Stdio;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Transport;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.McpEndpoints;
import dev.mcpx.client.McpClients;

/**
 * Turns each upstream's {@link McpUpstreamSettings} into a configured
 * {@link McpClientBuilder}, then applies the customizers. Public so that an application
 * defining its own clients can reuse the mapping.
 */
public final class McpClientConfigurer {

	private final McpxUpstreams upstreams;

	private final List<McpClientCustomizer> customizers;

	private final @Nullable HttpClients httpClients;

	/**
	 * Creates a configurer of the upstreams of the given properties.
	 * @param properties the bound properties
	 * @param customizers the customizers, in order
	 * @param httpClients creates each client's HTTP client builder, or {@code null} to let
	 * each client create its own
	 * @param sslBundles the application's SSL bundles, or {@code null} when it has none
	 */
	public McpClientConfigurer(McpxProperties properties, List<McpClientCustomizer> customizers,
			@Nullable HttpClients httpClients, @Nullable SslBundles sslBundles) {
		this(new McpxUpstreams(properties, sslBundles), customizers, httpClients);
	}

	/**
	 * Creates a configurer of the given upstreams.
	 * @param upstreams the upstreams' settings
	 * @param customizers the customizers, in order
	 * @param httpClients creates each client's HTTP client builder, or {@code null} to let
	 * each client create its own
	 */
	public McpClientConfigurer(McpxUpstreams upstreams, List<McpClientCustomizer> customizers,
			@Nullable HttpClients httpClients) {
		this.upstreams = upstreams;
		this.customizers = List.copyOf(customizers);
		this.httpClients = httpClients;
	}

	/**
	 * Validates every upstream and creates a configured builder for each.
	 * @return the builders by upstream name, in declaration order
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public Map<String, McpClientBuilder> builders() {
		Map<String, McpClientBuilder> builders = new LinkedHashMap<>();
		this.upstreams.names().forEach((name) -> builders.put(name, builder(this.upstreams.get(name))));
		return builders;
	}

	/**
	 * Validates the settings of an upstream added while the application runs, given as
	 * they would be under {@code mcpx.clients.<name>} (with {@code mcpx.defaults} under
	 * them), and creates a configured builder for it: for
	 * {@link dev.mcpx.client.McpClients#add(McpClient) McpClients.add} of its client.
	 * @param name the upstream name
	 * @param settings its settings, as under {@code mcpx.clients.<name>}
	 * @return the builder, customized
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public McpClientBuilder builder(String name, McpxProperties.Client settings) {
		return builder(this.upstreams.resolve(name, settings));
	}

	/**
	 * Creates the configured builder of the upstream of a discovered service, over the
	 * service's live instances: its settings ({@link McpxUpstreams#discovered}), then the
	 * customizers, as an upstream from the configuration gets them.
	 * @param discovered the upstream's settings, whose transport is
	 * {@link McpUpstreamSettings.Discovered}
	 * @param instances the service's live instances
	 * @return the builder, customized
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public McpClientBuilder builder(McpUpstreamSettings discovered, McpEndpoints instances) {
		if (!(discovered.transport() instanceof Discovered service)) {
			throw new IllegalArgumentException("MCP upstream '" + discovered.name() + "' is not a discovered one");
		}
		McpClientBuilder builder = McpClient.builder(discovered.name(), instances);
		http(discovered, builder, service.headers(), service.connectTimeout(), service.sslBundle());
		common(discovered, builder);
		customize(discovered.name(), builder);
		return builder;
	}

	/**
	 * What an upstream added in code gets before its own settings ({@link McpClients.Preparation}):
	 * the settings of {@code mcpx.defaults}, and for an HTTP upstream the application's
	 * HTTP client with the default connect timeout.
	 * @param name the upstream name
	 * @param builder its builder
	 */
	void applyDefaults(String name, McpClientBuilder builder) {
		McpUpstreamSettings defaults = this.upstreams.get(name);
		common(defaults, builder);
		if (this.httpClients != null) {
			HttpClients httpClients = this.httpClients;
			Duration connectTimeout = defaults.connectTimeout();
			builder.restClientBuilder(() -> httpClients.restClientBuilder(connectTimeout, null));
		}
	}

	/**
	 * The customizers, in order, as every upstream from the configuration gets them last.
	 * @param name the upstream name
	 * @param builder its builder
	 */
	void customize(String name, McpClientBuilder builder) {
		this.customizers.forEach((customizer) -> customizer.customize(name, builder));
	}

	/**
	 * A configured builder of an upstream whose settings are resolved (a refresh).
	 * @param upstream its settings
	 * @return the builder, customized
	 */
	McpClientBuilder builder(McpUpstreamSettings upstream) {
		McpClientBuilder builder = transport(upstream);
		common(upstream, builder);
		customize(upstream.name(), builder);
		return builder;
	}

	private static void common(McpUpstreamSettings upstream, McpClientBuilder builder) {
		builder.protocol(upstream.protocol())
			.requestTimeout(upstream.requestTimeout())
			.handshakeTimeout(upstream.handshakeTimeout())
			.maxMessageBytes(upstream.maxMessageBytes())
			.catalogueTtl(upstream.catalogueTtl())
			.listenForChanges(upstream.listenForChanges())
			.keepaliveInterval(upstream.keepaliveInterval())
			.recoveryPolicy(upstream.recoveryPolicy())
			.taskAugmentation(upstream.taskAugmentation());
		String serverLogLevel = upstream.serverLogLevel();
		if (serverLogLevel != null) {
			refusedAs(upstream.property("server-log-level"), () -> builder.serverLogLevel(serverLogLevel));
		}
	}

	private McpClientBuilder transport(McpUpstreamSettings upstream) {
		Transport transport = upstream.transport();
		if (transport instanceof Stdio stdio) {
			return McpClient.stdio(upstream.name(), stdio.command()).restartPolicy(stdio.restartPolicy());
		}
		if (!(transport instanceof Http http)) {
			throw new IllegalStateException("MCP upstream '" + upstream.name() + "' is not declared under mcpx.clients");
		}
		// the client builder's check of the URL is the one; its refusal names the property
		McpClientBuilder builder = refusedAs(upstream.property("url"), () -> McpClient.builder(upstream.name(), http.url()));
		http(upstream, builder, http.headers(), http.connectTimeout(), http.sslBundle());
		return builder;
	}

	/** The HTTP settings: connect timeout, headers, and the application's HTTP client. */
	private void http(McpUpstreamSettings upstream, McpClientBuilder builder, Map<String, String> headers,
			Duration connectTimeout, @Nullable SslBundle sslBundle) {
		builder.connectTimeout(connectTimeout);
		headers.forEach(builder::header);
		if (this.httpClients != null) {
			HttpClients httpClients = this.httpClients;
			// on first use: Boot's builder builds a JDK client, and with it a TLS context
			builder.restClientBuilder(() -> httpClients.restClientBuilder(connectTimeout, sslBundle));
		}
		else if (sslBundle != null) {
			throw new InvalidMcpxPropertyException(upstream.property("ssl-bundle"),
					"SSL bundles need the application's HTTP client settings, which are not available");
		}
	}

	/** What the client builder refuses, reported under the property the value came from. */
	private static <T> T refusedAs(String property, Supplier<T> step) {
		try {
			return step.get();
		}
		catch (IllegalArgumentException ex) {
			// the builder names what it refuses
			throw new InvalidMcpxPropertyException(property,
					Objects.requireNonNullElse(ex.getMessage(), "it is not valid"));
		}
	}

	/**
	 * Creates the HTTP client builder of one upstream's client.
	 */
	@FunctionalInterface
	public interface HttpClients {

		/**
		 * Creates a builder whose requests use the given settings.
		 * @param connectTimeout the connect timeout
		 * @param sslBundle the SSL bundle for https, or {@code null} for the default trust
		 * @return a new builder
		 */
		RestClient.Builder restClientBuilder(Duration connectTimeout, @Nullable SslBundle sslBundle);

	}

}
