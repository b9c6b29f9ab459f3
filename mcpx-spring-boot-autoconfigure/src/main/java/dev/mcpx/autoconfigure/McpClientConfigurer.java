package dev.mcpx.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.springframework.util.unit.DataSize;

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

	private final Function<Duration, org.springframework.web.client.RestClient.Builder> restClientBuilders;

	/**
	 * Creates a configurer.
	 * @param properties the bound properties
	 * @param customizers the customizers, in order
	 * @param restClientBuilders supplies the HTTP client builder for a connect timeout, or
	 * {@code null} to let each client create its own
	 */
	public McpClientConfigurer(McpxProperties properties, List<McpClientCustomizer> customizers,
			Function<Duration, org.springframework.web.client.RestClient.Builder> restClientBuilders) {
		this.properties = properties;
		this.customizers = List.copyOf(customizers);
		this.restClientBuilders = restClientBuilders;
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
		String prefix = "mcpx.clients." + name + ".";
		URI url = validUrl(prefix + "url", client.getUrl());
		Protocol protocol = orDefault(client.getProtocol(), defaults.getProtocol());
		Duration connectTimeout = positive(prefix + "connect-timeout",
				orDefault(client.getConnectTimeout(), defaults.getConnectTimeout()));
		McpClientBuilder builder = McpClient.builder(name, url)
			.protocol(ProtocolMode.valueOf(protocol.name()))
			.requestTimeout(positive(prefix + "request-timeout",
					orDefault(client.getRequestTimeout(), defaults.getRequestTimeout())))
			.connectTimeout(connectTimeout)
			.handshakeTimeout(positive(prefix + "handshake-timeout",
					orDefault(client.getHandshakeTimeout(), defaults.getHandshakeTimeout())))
			.maxMessageBytes(messageSize(prefix + "max-message-size",
					orDefault(client.getMaxMessageSize(), defaults.getMaxMessageSize())));
		Duration keepalive = orDefault(client.getKeepaliveInterval(), defaults.getKeepaliveInterval());
		builder.keepaliveInterval((keepalive != null) ? positive(prefix + "keepalive-interval", keepalive) : null);
		builder.recoveryPolicy(recoveryPolicy(prefix + "recovery.", client.getRecovery(), defaults.getRecovery()));
		Map<String, String> headers = new LinkedHashMap<>(defaults.getHeaders());
		headers.putAll(client.getHeaders());
		headers.forEach(builder::header);
		if (this.restClientBuilders != null) {
			builder.restClientBuilder(this.restClientBuilders.apply(connectTimeout));
		}
		this.customizers.forEach((customizer) -> customizer.customize(name, builder));
		return builder;
	}

	private static RecoveryPolicy recoveryPolicy(String prefix, Recovery own, Recovery defaults) {
		RecoveryPolicy builtIn = RecoveryPolicy.defaults();
		int attempts = pick(own.getBrokenStream().getResumptionAttempts(),
				defaults.getBrokenStream().getResumptionAttempts(), builtIn.resumptionAttempts());
		if (attempts < 0) {
			throw new InvalidMcpxPropertyException(prefix + "broken-stream.resumption-attempts",
					"it must not be negative, was " + attempts);
		}
		Map<String, ToolReplay> tools = new LinkedHashMap<>(defaults.getTools());
		tools.putAll(own.getTools());
		return new RecoveryPolicy(
				pick(own.getSessionExpiry().getEnabled(), defaults.getSessionExpiry().getEnabled(),
						builtIn.sessionExpiry()),
				pick(own.getSessionExpiry().getOnBadRequest(), defaults.getSessionExpiry().getOnBadRequest(),
						builtIn.expiryOnBadRequest()),
				pick(own.getBrokenStream().getEnabled(), defaults.getBrokenStream().getEnabled(),
						builtIn.brokenStream()),
				attempts, pick(own.getTrustAnnotations(), defaults.getTrustAnnotations(), builtIn.trustAnnotations()),
				tools);
	}

	private static <T> T pick(T own, T fallback, T builtIn) {
		return (own != null) ? own : (fallback != null) ? fallback : builtIn;
	}

	private static URI validUrl(String property, URI url) {
		if (url == null) {
			throw new InvalidMcpxPropertyException(property, "it is required; set it to the upstream's MCP endpoint");
		}
		String scheme = (url.getScheme() != null) ? url.getScheme().toLowerCase(Locale.ROOT) : null;
		if (!"http".equals(scheme) && !"https".equals(scheme)) {
			throw new InvalidMcpxPropertyException(property,
					"the scheme must be http or https, was " + ((scheme != null) ? "'" + scheme + "'" : "missing"));
		}
		if (url.getHost() == null || url.getHost().isEmpty()) {
			throw new InvalidMcpxPropertyException(property, "it has no host");
		}
		return url;
	}

	private static Duration positive(String property, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new InvalidMcpxPropertyException(property, "it must be a positive duration, was " + value);
		}
		return value;
	}

	private static int messageSize(String property, DataSize size) {
		if (size == null || size.toBytes() <= 0 || size.toBytes() > Integer.MAX_VALUE) {
			throw new InvalidMcpxPropertyException(property, "it must be between 1B and 2GB, was " + size);
		}
		return (int) size.toBytes();
	}

	private static <T> T orDefault(T value, T fallback) {
		return (value != null) ? value : fallback;
	}

}
