package dev.mcpx.autoconfigure;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.PropertyMapper;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.unit.DataSize;

import dev.mcpx.autoconfigure.McpUpstreamSettings.Http;
import dev.mcpx.autoconfigure.McpUpstreamSettings.SpringAi;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Stdio;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Transport;
import dev.mcpx.autoconfigure.McpxProperties.Client;
import dev.mcpx.autoconfigure.McpxProperties.Defaults;
import dev.mcpx.autoconfigure.McpxProperties.SpringAi.Expose;
import dev.mcpx.autoconfigure.McpxProperties.UpstreamSettings;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.TaskAugmentation;
import dev.mcpx.client.recovery.ToolReplay;

/**
 * Maps {@code mcpx.clients.<name>} and {@code mcpx.defaults} to one upstream's
 * {@link McpUpstreamSettings}: the upstream's own value, else the default, else the built-in
 * one the settings start from. A bad value fails with {@link InvalidMcpxPropertyException}
 * naming the property it came from.
 */
final class UpstreamSettingsMapper {

	private static final PropertyMapper map = PropertyMapper.get();

	private final Defaults defaults;

	private final @Nullable SslBundles sslBundles;

	UpstreamSettingsMapper(Defaults defaults, @Nullable SslBundles sslBundles) {
		this.defaults = defaults;
		this.sslBundles = sslBundles;
	}

	/**
	 * Resolves one upstream.
	 * @param name the upstream name
	 * @param client its properties, or {@code null} for an upstream not declared under
	 * {@code mcpx.clients} (only {@code mcpx.defaults} applies, and no transport is known)
	 * @return the settings
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	McpUpstreamSettings map(String name, @Nullable Client client) {
		UpstreamSettingsBuilder settings = McpUpstreamSettings.builder(name);
		Picker pick = new Picker(McpUpstreamSettings.prefix(name), (client != null) ? client : new Client(),
				this.defaults, settings);
		if (client == null) {
			// for its listing bound, as an HTTP upstream's; not checked, since no client is built from it
			map.from(pick.value("connect-timeout", UpstreamSettings::getConnectTimeout)).to(settings::connectTimeout);
		}
		else {
			settings.transport(isStdio(pick, client) ? stdio(pick, client) : http(pick, client));
		}
		return common(pick, settings);
	}

	/** The settings every upstream has, whatever its transport. */
	private static McpUpstreamSettings common(Picker pick, UpstreamSettingsBuilder settings) {
		map.from(pick.value("protocol", UpstreamSettings::getProtocol)).to(settings::protocol);
		map.from(pick.of("request-timeout", UpstreamSettings::getRequestTimeout))
			.as(UpstreamSettingsMapper::positive)
			.to(settings::requestTimeout);
		map.from(pick.of("handshake-timeout", UpstreamSettings::getHandshakeTimeout))
			.as(UpstreamSettingsMapper::positive)
			.to(settings::handshakeTimeout);
		map.from(pick.of("max-message-size", UpstreamSettings::getMaxMessageSize))
			.as(UpstreamSettingsMapper::messageSize)
			.to(settings::maxMessageBytes);
		map.from(pick.of("catalogue-ttl", UpstreamSettings::getCatalogueTtl))
			.as(UpstreamSettingsMapper::notNegative)
			.to(settings::catalogueTtl);
		map.from(pick.value("listen-for-changes", UpstreamSettings::getListenForChanges)).to(settings::listenForChanges);
		map.from(pick.of("keepalive-interval", UpstreamSettings::getKeepaliveInterval))
			.as(UpstreamSettingsMapper::positive)
			.to(settings::keepaliveInterval);
		map.from(pick.value("server-log-level", UpstreamSettings::getServerLogLevel)).to(settings::serverLogLevel);
		settings.recoveryPolicy(recoveryPolicy(pick));
		settings.springAi(springAi(pick));
		TaskAugmentation augment = pick.value("tasks.augment", (s) -> s.getTasks().getAugment());
		map.from(augment).to(settings::taskAugmentation);
		return settings.build();
	}

	/**
	 * Resolves the upstream of a discovered service: for each setting, the service's own
	 * ({@code mcpx.discovery.services.<id>.*}), else {@code mcpx.discovery.defaults.*}, else
	 * {@code mcpx.defaults.*}, else the built-in default; the transport is Streamable HTTP to
	 * the service's instances, the era what the instances declare when no property sets it.
	 * @param serviceId the service id, which is the upstream's name
	 * @param discovery the discovery properties
	 * @param declared the era the instances declare ({@code mcp.protocol}), or {@code null}
	 * @return the settings
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	McpUpstreamSettings mapDiscovered(String serviceId, McpxProperties.Discovery discovery,
			@Nullable ProtocolMode declared) {
		UpstreamSettingsBuilder settings = McpUpstreamSettings.builder(serviceId);
		UpstreamSettings own = discovery.getServices().getOrDefault(serviceId, new Defaults());
		Picker pick = new Picker("mcpx.discovery.services." + serviceId + ".", own,
				new Layer("mcpx.discovery.defaults.", discovery.getDefaults()), this.defaults, settings);
		Duration connectTimeout = orBuiltIn(pick.of("connect-timeout", UpstreamSettings::getConnectTimeout),
				UpstreamSettingsMapper::positive, McpClientBuilder.DEFAULT_CONNECT_TIMEOUT);
		settings.transport(new McpUpstreamSettings.Discovered(serviceId, headers(pick), connectTimeout,
				sslBundle(pick.of("ssl-bundle", UpstreamSettings::getSslBundle))));
		if (declared != null) {
			settings.protocol(declared);
		}
		return common(pick, settings);
	}

	/** Headers of every layer, the nearer replacing a header of the same name. */
	private static Map<String, String> headers(Picker pick) {
		Map<String, String> headers = new LinkedHashMap<>();
		pick.under().forEach((layer) -> headers.putAll(layer.getHeaders()));
		headers.putAll(pick.own().getHeaders());
		return headers;
	}

	/**
	 * Exactly one of {@code url} and {@code command}: an HTTP upstream, or a stdio one.
	 */
	private static boolean isStdio(Picker pick, Client client) {
		boolean url = client.getUrl() != null && !client.getUrl().isBlank();
		boolean command = client.getCommand() != null && !client.getCommand().isBlank();
		String prefix = pick.prefix();
		if (url && command) {
			throw new InvalidMcpxPropertyException(prefix + "command", "both " + prefix + "url and " + prefix
					+ "command are set; set exactly one: url for an HTTP upstream, command for a stdio upstream");
		}
		if (!url && !command) {
			throw new InvalidMcpxPropertyException(prefix + "url", "it is required, or " + prefix
					+ "command; set exactly one: url to the upstream's MCP endpoint, or command to start a stdio "
					+ "MCP server");
		}
		return command;
	}

	private Http http(Picker pick, Client client) {
		URI url = parse(pick.prefix() + "url", client.getUrl());
		stdioOnly(pick, "args", !client.getArgs().isEmpty());
		stdioOnly(pick, "env", !client.getEnv().isEmpty());
		stdioOnly(pick, "working-directory", client.getWorkingDirectory() != null);
		stdioOnly(pick, "inherit-env", client.getInheritEnv() != null);
		Duration connectTimeout = orBuiltIn(pick.of("connect-timeout", UpstreamSettings::getConnectTimeout),
				UpstreamSettingsMapper::positive, McpClientBuilder.DEFAULT_CONNECT_TIMEOUT);
		Map<String, String> headers = headers(pick);
		return new Http(url, headers, connectTimeout, sslBundle(pick.of("ssl-bundle", UpstreamSettings::getSslBundle)));
	}

	/**
	 * A stdio upstream (2025-11-25 basic/transports §stdio): the command and its arguments
	 * as a list, never a shell line. The process starts on first use, so a missing program
	 * fails the first call, not the application's startup.
	 */
	private static Stdio stdio(Picker pick, Client client) {
		httpOnly(pick, "headers", !client.getHeaders().isEmpty());
		httpOnly(pick, "ssl-bundle", client.getSslBundle() != null);
		httpOnly(pick, "connect-timeout", client.getConnectTimeout() != null);
		for (int i = 0; i < client.getArgs().size(); i++) {
			if (client.getArgs().get(i) == null) {
				throw new InvalidMcpxPropertyException(pick.prefix() + "args[" + i + "]", "it must not be empty");
			}
		}
		String program = Objects.requireNonNull(client.getCommand(), "command").trim();
		boolean inheritEnv = !Boolean.FALSE.equals(client.getInheritEnv());
		StdioCommand command = new StdioCommand(program, client.getArgs(), client.getEnv(),
				client.getWorkingDirectory(), inheritEnv);
		return new Stdio(command, restartPolicy(pick));
	}

	private static void httpOnly(Picker pick, String key, boolean set) {
		if (set) {
			throw new InvalidMcpxPropertyException(pick.prefix() + key, "it applies to HTTP upstreams only, and "
					+ "this upstream is a stdio one (" + pick.prefix() + "command is set)");
		}
	}

	private static void stdioOnly(Picker pick, String key, boolean set) {
		if (set) {
			throw new InvalidMcpxPropertyException(pick.prefix() + key, "it applies to stdio upstreams only ("
					+ pick.prefix() + "command), and this upstream is an HTTP one (" + pick.prefix() + "url is set)");
		}
	}

	private static ProcessRestartPolicy restartPolicy(Picker pick) {
		ProcessRestartPolicy.Builder policy = ProcessRestartPolicy.from(ProcessRestartPolicy.ofDefaults());
		Setting<Duration> initial = pick.of("restart.initial-backoff", (s) -> s.getRestart().getInitialBackoff());
		map.from(initial).as(UpstreamSettingsMapper::notNegative).to(policy::initialBackoff);
		Setting<Duration> max = pick.of("restart.max-backoff", (s) -> s.getRestart().getMaxBackoff());
		map.from(max).as(UpstreamSettingsMapper::positive).to(policy::maxBackoff);
		map.from(pick.of("restart.max-restarts", (s) -> s.getRestart().getMaxRestarts()))
			.as(UpstreamSettingsMapper::notNegativeCount)
			.to(policy::maxRestarts);
		map.from(pick.of("restart.window", (s) -> s.getRestart().getWindow()))
			.as(UpstreamSettingsMapper::positive)
			.to(policy::window);
		map.from(pick.of("restart.cool-down", (s) -> s.getRestart().getCoolDown()))
			.as(UpstreamSettingsMapper::positive)
			.to(policy::coolDown);
		try {
			return policy.build();
		}
		catch (IllegalArgumentException ex) {
			// the one rule across values: max-backoff not below initial-backoff
			String property = (max != null) ? max.property()
					: (initial != null) ? initial.property() : pick.prefix() + "restart.max-backoff";
			throw new InvalidMcpxPropertyException(property,
					Objects.requireNonNullElse(ex.getMessage(), "it is not valid"));
		}
	}

	private static RecoveryPolicy recoveryPolicy(Picker pick) {
		RecoveryPolicy.Builder policy = RecoveryPolicy.from(RecoveryPolicy.ofDefaults());
		map.from(pick.<Boolean>value("recovery.session-expiry.enabled",
				(s) -> s.getRecovery().getSessionExpiry().getEnabled()))
			.to(policy::sessionExpiry);
		map.from(pick.<Boolean>value("recovery.session-expiry.on-bad-request",
				(s) -> s.getRecovery().getSessionExpiry().getOnBadRequest()))
			.to(policy::expiryOnBadRequest);
		map.from(pick.<Boolean>value("recovery.broken-stream.enabled",
				(s) -> s.getRecovery().getBrokenStream().getEnabled()))
			.to(policy::brokenStream);
		map.from(pick.of("recovery.broken-stream.resumption-attempts",
				(s) -> s.getRecovery().getBrokenStream().getResumptionAttempts()))
			.as(UpstreamSettingsMapper::notNegativeCount)
			.to(policy::resumptionAttempts);
		map.from(pick.<Boolean>value("recovery.trust-annotations", (s) -> s.getRecovery().getTrustAnnotations()))
			.to(policy::trustAnnotations);
		// tasks are the protocol's own recovery of a lost answer: the policy holds whether the server may make one
		map.from(pick.<Boolean>value("tasks.enabled", (s) -> s.getTasks().getEnabled())).to(policy::taskExtension);
		Map<String, ToolReplay> tools = new LinkedHashMap<>();
		pick.under().forEach((layer) -> tools.putAll(layer.getRecovery().getTools()));
		tools.putAll(pick.own().getRecovery().getTools());
		return policy.tools(tools).build();
	}

	private static SpringAi springAi(Picker pick) {
		McpxProperties.SpringAi own = pick.own().getSpringAi();
		McpxProperties.SpringAi defaults = pick.defaults().getSpringAi();
		McpxProperties.SpringAi middle = (pick.middle() != null) ? pick.middle().settings().getSpringAi() : defaults;
		String prefix = Objects.requireNonNullElse(
				pick.value("spring-ai.tool-prefix", (s) -> s.getSpringAi().getToolPrefix()), "");
		Expose expose = Objects.requireNonNullElse(pick.value("spring-ai.expose", (s) -> s.getSpringAi().getExpose()),
				Expose.ALL);
		List<String> include = !own.getInclude().isEmpty() ? own.getInclude()
				: !middle.getInclude().isEmpty() ? middle.getInclude() : defaults.getInclude();
		List<String> exclude = new ArrayList<>(defaults.getExclude());
		if (middle != defaults) {
			exclude.addAll(middle.getExclude());
		}
		exclude.addAll(own.getExclude());
		return new SpringAi(prefix, expose, include, exclude);
	}

	private @Nullable SslBundle sslBundle(@Nullable Setting<String> setting) {
		if (setting == null || setting.value().isBlank()) {
			return null;
		}
		String name = setting.value();
		if (this.sslBundles == null || !this.sslBundles.getBundleNames().contains(name)) {
			throw new InvalidMcpxPropertyException(setting.property(), "no SSL bundle named '" + name
					+ "' is configured (spring.ssl.bundle.*)");
		}
		return this.sslBundles.getBundle(name);
	}

	/**
	 * The URL as written, trimmed; that it is an http(s) URL without credentials is the
	 * client builder's check, whose refusal the configurer reports under this property.
	 */
	private static URI parse(String property, @Nullable String value) {
		if (value == null || value.isBlank()) {
			throw new InvalidMcpxPropertyException(property, "it is required; set it to the upstream's MCP endpoint");
		}
		try {
			return new URI(value.trim());
		}
		catch (URISyntaxException ex) {
			throw new InvalidMcpxPropertyException(property, "it is not a valid URL (" + ex.getReason() + ")");
		}
	}

	private static Duration positive(Setting<Duration> setting) {
		Duration value = setting.value();
		if (value.isNegative() || value.isZero()) {
			throw new InvalidMcpxPropertyException(setting.property(),
					"it must be a positive duration, was " + print(value));
		}
		return value;
	}

	private static Duration notNegative(Setting<Duration> setting) {
		Duration value = setting.value();
		if (value.isNegative()) {
			throw new InvalidMcpxPropertyException(setting.property(),
					"it must be zero or a positive duration, was " + print(value));
		}
		return value;
	}

	private static int notNegativeCount(Setting<Integer> setting) {
		if (setting.value() < 0) {
			throw new InvalidMcpxPropertyException(setting.property(),
					"it must not be negative, was " + setting.value());
		}
		return setting.value();
	}

	private static int messageSize(Setting<DataSize> setting) {
		DataSize size = setting.value();
		if (size.toBytes() <= 0 || size.toBytes() > Integer.MAX_VALUE) {
			throw new InvalidMcpxPropertyException(setting.property(), "it must be between 1B and 2GB, was " + size);
		}
		return (int) size.toBytes();
	}

	private static <T, R> R orBuiltIn(@Nullable Setting<T> setting, Function<Setting<T>, R> check, R builtIn) {
		return (setting != null) ? check.apply(setting) : builtIn;
	}

	/** As the user wrote it: {@code -5s}, not {@code PT-5S}. */
	private static String print(Duration value) {
		boolean wholeSeconds = value.toNanos() % 1_000_000_000L == 0;
		return DurationStyle.SIMPLE.print(value, wholeSeconds ? ChronoUnit.SECONDS : ChronoUnit.MILLIS);
	}

	/**
	 * Settings between an upstream's own and {@code mcpx.defaults} (those of every discovered
	 * upstream), and where they are set.
	 */
	private record Layer(String prefix, UpstreamSettings settings) {
	}

	/**
	 * A value and the property it came from, so that a bad value is reported under the key
	 * the user actually set.
	 */
	private record Setting<T>(T value, String property) {
	}

	/**
	 * Picks one upstream's value of a setting: its own, else {@code mcpx.defaults}'s, else
	 * none (the built-in default the settings start from stands), and records where it came
	 * from.
	 */
	private record Picker(String prefix, UpstreamSettings own, @Nullable Layer middle, Defaults defaults,
			UpstreamSettingsBuilder settings) {

		Picker(String prefix, UpstreamSettings own, Defaults defaults, UpstreamSettingsBuilder settings) {
			this(prefix, own, null, defaults, settings);
		}

		/** The settings under the upstream's own, nearest last: {@code mcpx.defaults}, then the middle layer. */
		List<UpstreamSettings> under() {
			return (this.middle != null) ? List.of(this.defaults, this.middle.settings()) : List.of(this.defaults);
		}

		<T> @Nullable T value(String key, Function<UpstreamSettings, @Nullable T> getter) {
			Setting<T> setting = of(key, getter);
			return (setting != null) ? setting.value() : null;
		}

		<T> @Nullable Setting<T> of(String key, Function<UpstreamSettings, @Nullable T> getter) {
			T own = getter.apply(this.own);
			if (own != null) {
				return from(key, own, prefix() + key);
			}
			if (this.middle != null) {
				T between = getter.apply(this.middle.settings());
				if (between != null) {
					return from(key, between, this.middle.prefix() + key);
				}
			}
			T fallback = getter.apply(this.defaults);
			return (fallback != null) ? from(key, fallback, "mcpx.defaults." + key) : null;
		}

		private <T> Setting<T> from(String key, T value, String property) {
			this.settings.origin(key, property);
			return new Setting<>(value, property);
		}

	}

}
