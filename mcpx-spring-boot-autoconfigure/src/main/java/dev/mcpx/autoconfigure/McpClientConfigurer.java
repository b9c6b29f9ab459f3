package dev.mcpx.autoconfigure;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.unit.DataSize;
import org.springframework.web.client.RestClient;

import dev.mcpx.autoconfigure.McpxProperties.Client;
import dev.mcpx.autoconfigure.McpxProperties.Defaults;
import dev.mcpx.autoconfigure.McpxProperties.Protocol;
import dev.mcpx.autoconfigure.McpxProperties.Recovery;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ToolReplay;

/**
 * Turns {@link McpxProperties} into configured {@link McpClientBuilder}s: validates each
 * upstream, merges it with {@code mcpx.defaults}, then applies the customizers. Public so
 * that an application defining its own clients can reuse the mapping.
 */
public final class McpClientConfigurer {

	private final McpxProperties properties;

	private final List<McpClientCustomizer> customizers;

	private final HttpClients httpClients;

	private final SslBundles sslBundles;

	/**
	 * Creates a configurer.
	 * @param properties the bound properties
	 * @param customizers the customizers, in order
	 * @param httpClients creates each client's HTTP client builder, or {@code null} to let
	 * each client create its own
	 * @param sslBundles the application's SSL bundles, or {@code null} when it has none
	 */
	public McpClientConfigurer(McpxProperties properties, List<McpClientCustomizer> customizers,
			HttpClients httpClients, SslBundles sslBundles) {
		this.properties = properties;
		this.customizers = List.copyOf(customizers);
		this.httpClients = httpClients;
		this.sslBundles = sslBundles;
	}

	/**
	 * Validates every upstream and creates a configured builder for each.
	 * @return the builders by upstream name, in declaration order
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public Map<String, McpClientBuilder> builders() {
		Map<String, McpClientBuilder> builders = new LinkedHashMap<>();
		this.properties.getClients().forEach((name, client) -> builders.put(name, builder(name, client)));
		return builders;
	}

	private McpClientBuilder builder(String name, Client client) {
		Defaults defaults = this.properties.getDefaults();
		Settings settings = new Settings("mcpx.clients." + name + ".");
		URI url = validUrl(settings.prefix() + "url", client.getUrl());
		Protocol protocol = settings.pick("protocol", client.getProtocol(), defaults.getProtocol()).value();
		Duration connectTimeout = positive(
				settings.pick("connect-timeout", client.getConnectTimeout(), defaults.getConnectTimeout()));
		McpClientBuilder builder = McpClient.builder(name, url)
			.protocol(ProtocolMode.valueOf(protocol.name()))
			.requestTimeout(
					positive(settings.pick("request-timeout", client.getRequestTimeout(), defaults.getRequestTimeout())))
			.connectTimeout(connectTimeout)
			.handshakeTimeout(positive(
					settings.pick("handshake-timeout", client.getHandshakeTimeout(), defaults.getHandshakeTimeout())))
			.maxMessageBytes(messageSize(
					settings.pick("max-message-size", client.getMaxMessageSize(), defaults.getMaxMessageSize())))
			.catalogueTtl(notNegative(settings.pick("catalogue-ttl", client.getCatalogueTtl(), defaults.getCatalogueTtl())))
			.listenForChanges(
					settings.pick("listen-for-changes", client.getListenForChanges(), defaults.isListenForChanges())
						.value());
		Setting<Duration> keepalive = settings.pick("keepalive-interval", client.getKeepaliveInterval(),
				defaults.getKeepaliveInterval());
		builder.keepaliveInterval((keepalive.value() != null) ? positive(keepalive) : null);
		builder.recoveryPolicy(recoveryPolicy(settings.prefix() + "recovery.", client.getRecovery(),
				defaults.getRecovery()));
		Map<String, String> headers = new LinkedHashMap<>(defaults.getHeaders());
		headers.putAll(client.getHeaders());
		headers.forEach(builder::header);
		SslBundle sslBundle = sslBundle(settings.pick("ssl-bundle", client.getSslBundle(), defaults.getSslBundle()));
		if (this.httpClients != null) {
			builder.restClientBuilder(this.httpClients.restClientBuilder(connectTimeout, sslBundle));
		}
		else if (sslBundle != null) {
			throw new InvalidMcpxPropertyException(settings.prefix() + "ssl-bundle",
					"SSL bundles need the application's HTTP client settings, which are not available");
		}
		this.customizers.forEach((customizer) -> customizer.customize(name, builder));
		return builder;
	}

	private static RecoveryPolicy recoveryPolicy(String prefix, Recovery own, Recovery defaults) {
		RecoveryPolicy builtIn = RecoveryPolicy.ofDefaults();
		int attempts = pick(own.getBrokenStream().getResumptionAttempts(),
				defaults.getBrokenStream().getResumptionAttempts(), builtIn.resumptionAttempts());
		if (attempts < 0) {
			throw new InvalidMcpxPropertyException(prefix + "broken-stream.resumption-attempts",
					"it must not be negative, was " + attempts);
		}
		Map<String, ToolReplay> tools = new LinkedHashMap<>(defaults.getTools());
		tools.putAll(own.getTools());
		return RecoveryPolicy.custom()
			.sessionExpiry(pick(own.getSessionExpiry().getEnabled(), defaults.getSessionExpiry().getEnabled(),
					builtIn.sessionExpiry()))
			.expiryOnBadRequest(pick(own.getSessionExpiry().getOnBadRequest(),
					defaults.getSessionExpiry().getOnBadRequest(), builtIn.expiryOnBadRequest()))
			.brokenStream(pick(own.getBrokenStream().getEnabled(), defaults.getBrokenStream().getEnabled(),
					builtIn.brokenStream()))
			.resumptionAttempts(attempts)
			.trustAnnotations(pick(own.getTrustAnnotations(), defaults.getTrustAnnotations(), builtIn.trustAnnotations()))
			.tools(tools)
			.build();
	}

	private static <T> T pick(T own, T fallback, T builtIn) {
		return (own != null) ? own : (fallback != null) ? fallback : builtIn;
	}

	private SslBundle sslBundle(Setting<String> setting) {
		String name = setting.value();
		if (name == null || name.isBlank()) {
			return null;
		}
		if (this.sslBundles == null || !this.sslBundles.getBundleNames().contains(name)) {
			throw new InvalidMcpxPropertyException(setting.property(), "no SSL bundle named '" + name
					+ "' is configured (spring.ssl.bundle.*)");
		}
		return this.sslBundles.getBundle(name);
	}

	private static URI validUrl(String property, String value) {
		if (value == null || value.isBlank()) {
			throw new InvalidMcpxPropertyException(property, "it is required; set it to the upstream's MCP endpoint");
		}
		URI url;
		try {
			url = new URI(value.trim());
		}
		catch (URISyntaxException ex) {
			throw new InvalidMcpxPropertyException(property, "it is not a valid URL (" + ex.getReason() + ")");
		}
		String scheme = (url.getScheme() != null) ? url.getScheme().toLowerCase(Locale.ROOT) : null;
		if (!"http".equals(scheme) && !"https".equals(scheme)) {
			throw new InvalidMcpxPropertyException(property,
					"the scheme must be http or https, was " + ((scheme != null) ? "'" + scheme + "'" : "missing"));
		}
		if (url.getHost() == null || url.getHost().isEmpty()) {
			throw new InvalidMcpxPropertyException(property, "it has no host");
		}
		if (url.getRawUserInfo() != null) {
			// Credentials in a URL travel into logs and metrics tags; headers never do.
			throw new InvalidMcpxPropertyException(property,
					"it carries credentials (user-info); put them in a header such as Authorization instead");
		}
		return url;
	}

	private static Duration positive(Setting<Duration> setting) {
		Duration value = setting.value();
		if (value == null || value.isNegative() || value.isZero()) {
			throw new InvalidMcpxPropertyException(setting.property(),
					"it must be a positive duration, was " + print(value));
		}
		return value;
	}

	private static Duration notNegative(Setting<Duration> setting) {
		Duration value = setting.value();
		if (value == null || value.isNegative()) {
			throw new InvalidMcpxPropertyException(setting.property(),
					"it must be zero or a positive duration, was " + print(value));
		}
		return value;
	}

	/** As the user wrote it: {@code -5s}, not {@code PT-5S}. */
	private static String print(Duration value) {
		if (value == null) {
			return "empty";
		}
		boolean wholeSeconds = value.toNanos() % 1_000_000_000L == 0;
		return DurationStyle.SIMPLE.print(value, wholeSeconds ? ChronoUnit.SECONDS : ChronoUnit.MILLIS);
	}

	private static int messageSize(Setting<DataSize> setting) {
		DataSize size = setting.value();
		if (size == null || size.toBytes() <= 0 || size.toBytes() > Integer.MAX_VALUE) {
			throw new InvalidMcpxPropertyException(setting.property(), "it must be between 1B and 2GB, was " + size);
		}
		return (int) size.toBytes();
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
		RestClient.Builder restClientBuilder(Duration connectTimeout, SslBundle sslBundle);

	}

	/**
	 * A resolved setting and the property it came from, so that a bad value is reported
	 * under the key the user actually set.
	 */
	private record Setting<T>(T value, String property) {
	}

	/** Resolves one upstream's settings: its own, else {@code mcpx.defaults}. */
	private record Settings(String prefix) {

		<T> Setting<T> pick(String key, T own, T fallback) {
			return (own != null) ? new Setting<>(own, this.prefix + key) : new Setting<>(fallback, "mcpx.defaults." + key);
		}

	}

}
