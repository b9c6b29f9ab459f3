package dev.mcpx.autoconfigure;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.unit.DataSize;
import org.springframework.web.client.RestClient;

import dev.mcpx.autoconfigure.McpxProperties.Client;
import dev.mcpx.autoconfigure.McpxProperties.Defaults;
import dev.mcpx.autoconfigure.McpxProperties.Recovery;
import dev.mcpx.autoconfigure.McpxProperties.Restart;
import dev.mcpx.autoconfigure.McpxProperties.UpstreamSettings;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
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

	private final @Nullable HttpClients httpClients;

	private final @Nullable SslBundles sslBundles;

	/**
	 * Creates a configurer.
	 * @param properties the bound properties
	 * @param customizers the customizers, in order
	 * @param httpClients creates each client's HTTP client builder, or {@code null} to let
	 * each client create its own
	 * @param sslBundles the application's SSL bundles, or {@code null} when it has none
	 */
	public McpClientConfigurer(McpxProperties properties, List<McpClientCustomizer> customizers,
			@Nullable HttpClients httpClients, @Nullable SslBundles sslBundles) {
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
		Settings settings = new Settings("mcpx.clients." + name + ".", client, defaults);
		McpClientBuilder builder = isStdio(settings, client) ? stdio(name, settings, client)
				: http(name, settings, client);
		apply(settings.pick("protocol", UpstreamSettings::getProtocol), builder::protocol);
		apply(positive(settings.pick("request-timeout", UpstreamSettings::getRequestTimeout)), builder::requestTimeout);
		apply(positive(settings.pick("handshake-timeout", UpstreamSettings::getHandshakeTimeout)),
				builder::handshakeTimeout);
		apply(messageSize(settings.pick("max-message-size", UpstreamSettings::getMaxMessageSize)),
				builder::maxMessageBytes);
		apply(notNegative(settings.pick("catalogue-ttl", UpstreamSettings::getCatalogueTtl)), builder::catalogueTtl);
		apply(settings.pick("listen-for-changes", UpstreamSettings::getListenForChanges), builder::listenForChanges);
		apply(positive(settings.pick("keepalive-interval", UpstreamSettings::getKeepaliveInterval)),
				builder::keepaliveInterval);
		Setting<String> serverLogLevel = settings.pick("server-log-level", UpstreamSettings::getServerLogLevel);
		if (serverLogLevel != null) {
			try {
				builder.serverLogLevel(serverLogLevel.value());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidMcpxPropertyException(serverLogLevel.property(), problem(ex));
			}
		}
		builder.recoveryPolicy(recoveryPolicy(settings.prefix() + "recovery.", client.getRecovery(),
				defaults.getRecovery()));
		this.customizers.forEach((customizer) -> customizer.customize(name, builder));
		return builder;
	}

	/**
	 * Exactly one of {@code url} and {@code command}: an HTTP upstream, or a stdio one.
	 */
	private static boolean isStdio(Settings settings, Client client) {
		boolean url = client.getUrl() != null && !client.getUrl().isBlank();
		boolean command = client.getCommand() != null && !client.getCommand().isBlank();
		if (url && command) {
			throw new InvalidMcpxPropertyException(settings.prefix() + "command", "both " + settings.prefix()
					+ "url and " + settings.prefix() + "command are set; set exactly one: url for an HTTP upstream, "
					+ "command for a stdio upstream");
		}
		if (!url && !command) {
			throw new InvalidMcpxPropertyException(settings.prefix() + "url", "it is required, or "
					+ settings.prefix() + "command; set exactly one: url to the upstream's MCP endpoint, or command "
					+ "to start a stdio MCP server");
		}
		return command;
	}

	private McpClientBuilder http(String name, Settings settings, Client client) {
		URI url = validUrl(settings.prefix() + "url", client.getUrl());
		stdioOnly(settings, "args", !client.getArgs().isEmpty());
		stdioOnly(settings, "env", !client.getEnv().isEmpty());
		stdioOnly(settings, "working-directory", client.getWorkingDirectory() != null);
		stdioOnly(settings, "inherit-env", client.getInheritEnv() != null);
		McpClientBuilder builder = McpClient.builder(name, url);
		Setting<Duration> connectTimeout = positive(settings.pick("connect-timeout",
				UpstreamSettings::getConnectTimeout));
		apply(connectTimeout, builder::connectTimeout);
		Map<String, String> headers = new LinkedHashMap<>(this.properties.getDefaults().getHeaders());
		headers.putAll(client.getHeaders());
		headers.forEach(builder::header);
		SslBundle sslBundle = sslBundle(settings.pick("ssl-bundle", UpstreamSettings::getSslBundle));
		HttpClients httpClients = this.httpClients;
		if (httpClients != null) {
			Duration timeout = (connectTimeout != null) ? connectTimeout.value()
					: McpClientBuilder.DEFAULT_CONNECT_TIMEOUT;
			// on first use: Boot's builder builds a JDK client, and with it a TLS context
			builder.restClientBuilder(() -> httpClients.restClientBuilder(timeout, sslBundle));
		}
		else if (sslBundle != null) {
			throw new InvalidMcpxPropertyException(settings.prefix() + "ssl-bundle",
					"SSL bundles need the application's HTTP client settings, which are not available");
		}
		return builder;
	}

	/**
	 * A stdio upstream (2025-11-25 basic/transports §stdio): the command and its arguments
	 * as a list, never a shell line. The process starts on first use, so a missing program
	 * fails the first call, not the application's startup.
	 */
	private static McpClientBuilder stdio(String name, Settings settings, Client client) {
		httpOnly(settings, "headers", !client.getHeaders().isEmpty());
		httpOnly(settings, "ssl-bundle", client.getSslBundle() != null);
		httpOnly(settings, "connect-timeout", client.getConnectTimeout() != null);
		for (int i = 0; i < client.getArgs().size(); i++) {
			if (client.getArgs().get(i) == null) {
				throw new InvalidMcpxPropertyException(settings.prefix() + "args[" + i + "]", "it must not be empty");
			}
		}
		// isStdio checked that the command is set
		StdioCommand command = new StdioCommand(Objects.requireNonNull(client.getCommand()).trim(), client.getArgs(), client.getEnv(),
				client.getWorkingDirectory(), (client.getInheritEnv() != null) ? client.getInheritEnv() : true);
		return McpClient.stdio(name, command)
			.restartPolicy(restartPolicy(settings, client.getRestart(), settings.defaults().getRestart()));
	}

	private static void httpOnly(Settings settings, String key, boolean set) {
		if (set) {
			throw new InvalidMcpxPropertyException(settings.prefix() + key, "it applies to HTTP upstreams only, and "
					+ "this upstream is a stdio one (" + settings.prefix() + "command is set)");
		}
	}

	private static void stdioOnly(Settings settings, String key, boolean set) {
		if (set) {
			throw new InvalidMcpxPropertyException(settings.prefix() + key, "it applies to stdio upstreams only ("
					+ settings.prefix() + "command), and this upstream is an HTTP one (" + settings.prefix()
					+ "url is set)");
		}
	}

	private static ProcessRestartPolicy restartPolicy(Settings settings, Restart own, Restart defaults) {
		String prefix = "restart.";
		ProcessRestartPolicy.Builder policy = ProcessRestartPolicy.from(ProcessRestartPolicy.ofDefaults());
		Setting<Duration> initial = notNegative(settings.pick(prefix + "initial-backoff", own.getInitialBackoff(),
				defaults.getInitialBackoff()));
		apply(initial, policy::initialBackoff);
		Setting<Duration> max = positive(settings.pick(prefix + "max-backoff", own.getMaxBackoff(),
				defaults.getMaxBackoff()));
		apply(max, policy::maxBackoff);
		Setting<Integer> restarts = settings.pick(prefix + "max-restarts", own.getMaxRestarts(),
				defaults.getMaxRestarts());
		if (restarts != null && restarts.value() < 0) {
			throw new InvalidMcpxPropertyException(restarts.property(),
					"it must not be negative, was " + restarts.value());
		}
		apply(restarts, policy::maxRestarts);
		apply(positive(settings.pick(prefix + "window", own.getWindow(), defaults.getWindow())), policy::window);
		apply(positive(settings.pick(prefix + "cool-down", own.getCoolDown(), defaults.getCoolDown())),
				policy::coolDown);
		try {
			return policy.build();
		}
		catch (IllegalArgumentException ex) {
			String property = (max != null) ? max.property()
					: (initial != null) ? initial.property() : settings.prefix() + prefix + "max-backoff";
			throw new InvalidMcpxPropertyException(property, problem(ex));
		}
	}

	private static <T> void apply(@Nullable Setting<T> setting, Consumer<T> target) {
		if (setting != null) {
			target.accept(setting.value());
		}
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

	private static <T> T pick(@Nullable T own, @Nullable T fallback, T builtIn) {
		return (own != null) ? own : (fallback != null) ? fallback : builtIn;
	}

	private @Nullable SslBundle sslBundle(@Nullable Setting<String> setting) {
		if (setting == null) {
			return null;
		}
		String name = setting.value();
		if (name == null || name.isBlank()) {
			return null;
		}
		SslBundles sslBundles = this.sslBundles;
		if (sslBundles == null || !sslBundles.getBundleNames().contains(name)) {
			throw new InvalidMcpxPropertyException(setting.property(), "no SSL bundle named '" + name
					+ "' is configured (spring.ssl.bundle.*)");
		}
		return sslBundles.getBundle(name);
	}

	/** The builder's own words for a value it refused (its exceptions always carry them). */
	private static String problem(IllegalArgumentException ex) {
		return Objects.requireNonNullElse(ex.getMessage(), "it is not valid");
	}

	private static URI validUrl(String property, @Nullable String value) {
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

	private static @Nullable Setting<Duration> positive(@Nullable Setting<Duration> setting) {
		if (setting == null) {
			return null;
		}
		Duration value = setting.value();
		if (value == null || value.isNegative() || value.isZero()) {
			throw new InvalidMcpxPropertyException(setting.property(),
					"it must be a positive duration, was " + print(value));
		}
		return setting;
	}

	private static @Nullable Setting<Duration> notNegative(@Nullable Setting<Duration> setting) {
		if (setting == null) {
			return null;
		}
		Duration value = setting.value();
		if (value == null || value.isNegative()) {
			throw new InvalidMcpxPropertyException(setting.property(),
					"it must be zero or a positive duration, was " + print(value));
		}
		return setting;
	}

	/** As the user wrote it: {@code -5s}, not {@code PT-5S}. */
	private static String print(Duration value) {
		if (value == null) {
			return "empty";
		}
		boolean wholeSeconds = value.toNanos() % 1_000_000_000L == 0;
		return DurationStyle.SIMPLE.print(value, wholeSeconds ? ChronoUnit.SECONDS : ChronoUnit.MILLIS);
	}

	private static @Nullable Setting<Integer> messageSize(@Nullable Setting<DataSize> setting) {
		if (setting == null) {
			return null;
		}
		DataSize size = setting.value();
		if (size == null || size.toBytes() <= 0 || size.toBytes() > Integer.MAX_VALUE) {
			throw new InvalidMcpxPropertyException(setting.property(), "it must be between 1B and 2GB, was " + size);
		}
		return new Setting<>((int) size.toBytes(), setting.property());
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

	/**
	 * A resolved setting and the property it came from, so that a bad value is reported
	 * under the key the user actually set.
	 */
	private record Setting<T>(T value, String property) {
	}

	/**
	 * Resolves one upstream's settings: its own, else {@code mcpx.defaults}, else unset
	 * (the client's built-in default applies).
	 */
	private record Settings(String prefix, Client client, Defaults defaults) {

		<T> @Nullable Setting<T> pick(String key, Function<UpstreamSettings, @Nullable T> getter) {
			return pick(key, getter.apply(this.client), getter.apply(this.defaults));
		}

		<T> @Nullable Setting<T> pick(String key, @Nullable T own, @Nullable T fallback) {
			if (own != null) {
				return new Setting<>(own, this.prefix + key);
			}
			return (fallback != null) ? new Setting<>(fallback, "mcpx.defaults." + key) : null;
		}

	}

}
