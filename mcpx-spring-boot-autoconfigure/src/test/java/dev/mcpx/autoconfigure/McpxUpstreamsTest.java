package dev.mcpx.autoconfigure;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import dev.mcpx.autoconfigure.McpUpstreamSettings.Http;
import dev.mcpx.autoconfigure.McpUpstreamSettings.SpringAi;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Stdio;
import dev.mcpx.autoconfigure.McpxProperties.SpringAi.Expose;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ToolReplay;

import dev.mcpx.client.recovery.TaskAugmentation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each upstream's settings resolved once from {@code mcpx.clients.<name>} and
 * {@code mcpx.defaults}, bound as an application binds them: the upstream's own value, else
 * the default, else the client's built-in default; and a bad value reported under the
 * property it came from.
 */
class McpxUpstreamsTest {

	@Test
	void whenNothingIsSetEverySettingIsTheClientsBuiltInDefault() {
		McpUpstreamSettings weather = upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp").get("weather");
		assertThat(weather.transport()).isEqualTo(
				new Http(URI.create("http://127.0.0.1:1/mcp"), Map.of(), McpClientBuilder.DEFAULT_CONNECT_TIMEOUT, null));
		assertThat(weather.protocol()).isEqualTo(ProtocolMode.AUTO);
		assertThat(weather.requestTimeout()).isEqualTo(McpClientBuilder.DEFAULT_REQUEST_TIMEOUT);
		assertThat(weather.handshakeTimeout()).isEqualTo(McpClientBuilder.DEFAULT_HANDSHAKE_TIMEOUT);
		assertThat(weather.maxMessageBytes()).isEqualTo(McpClientBuilder.DEFAULT_MAX_MESSAGE_BYTES);
		assertThat(weather.catalogueTtl()).isEqualTo(McpClientBuilder.DEFAULT_CATALOGUE_TTL);
		assertThat(weather.listenForChanges()).isTrue();
		assertThat(weather.keepaliveInterval()).isNull();
		assertThat(weather.serverLogLevel()).isNull();
		assertThat(weather.recoveryPolicy()).isEqualTo(RecoveryPolicy.ofDefaults());
		assertThat(weather.springAi()).isEqualTo(new SpringAi("", Expose.ALL, List.of(), List.of()));
	}

	@Test
	void anUpstreamsOwnValueWinsOverTheDefaultWhichWinsOverTheBuiltInOne() {
		McpxUpstreams upstreams = upstreams("mcpx.clients.own.url", "http://127.0.0.1:1/mcp",
				"mcpx.clients.inherits.url", "http://127.0.0.1:2/mcp",
				// every setting both in mcpx.defaults and in the upstream "own"
				"mcpx.defaults.protocol", "legacy", "mcpx.clients.own.protocol", "modern",
				"mcpx.defaults.request-timeout", "7s", "mcpx.clients.own.request-timeout", "8s",
				"mcpx.defaults.connect-timeout", "2s", "mcpx.clients.own.connect-timeout", "3s",
				"mcpx.defaults.handshake-timeout", "4s", "mcpx.clients.own.handshake-timeout", "6s",
				"mcpx.defaults.max-message-size", "1MB", "mcpx.clients.own.max-message-size", "2KB",
				"mcpx.defaults.catalogue-ttl", "0s", "mcpx.clients.own.catalogue-ttl", "1m",
				"mcpx.defaults.listen-for-changes", "false", "mcpx.clients.own.listen-for-changes", "true",
				"mcpx.defaults.keepalive-interval", "20s", "mcpx.clients.own.keepalive-interval", "40s",
				"mcpx.defaults.server-log-level", "warning", "mcpx.clients.own.server-log-level", "debug",
				"mcpx.defaults.recovery.session-expiry.enabled", "false",
				"mcpx.clients.own.recovery.session-expiry.enabled", "true",
				"mcpx.defaults.recovery.session-expiry.on-bad-request", "false",
				"mcpx.clients.own.recovery.session-expiry.on-bad-request", "true",
				"mcpx.defaults.recovery.broken-stream.enabled", "false",
				"mcpx.clients.own.recovery.broken-stream.enabled", "true",
				"mcpx.defaults.recovery.broken-stream.resumption-attempts", "0",
				"mcpx.clients.own.recovery.broken-stream.resumption-attempts", "5",
				"mcpx.defaults.recovery.trust-annotations", "false", "mcpx.clients.own.recovery.trust-annotations",
				"true", "mcpx.defaults.spring-ai.tool-prefix", "any_", "mcpx.clients.own.spring-ai.tool-prefix", "own_",
				"mcpx.defaults.spring-ai.expose", "read-only", "mcpx.clients.own.spring-ai.expose", "non-destructive");
		McpUpstreamSettings own = upstreams.get("own");
		assertThat(((Http) own.transport()).connectTimeout()).isEqualTo(Duration.ofSeconds(3));
		assertThat(own.protocol()).isEqualTo(ProtocolMode.MODERN);
		assertThat(own.requestTimeout()).isEqualTo(Duration.ofSeconds(8));
		assertThat(own.handshakeTimeout()).isEqualTo(Duration.ofSeconds(6));
		assertThat(own.maxMessageBytes()).isEqualTo(2048);
		assertThat(own.catalogueTtl()).isEqualTo(Duration.ofMinutes(1));
		assertThat(own.listenForChanges()).isTrue();
		assertThat(own.keepaliveInterval()).isEqualTo(Duration.ofSeconds(40));
		assertThat(own.serverLogLevel()).isEqualTo("debug");
		assertThat(own.recoveryPolicy()).isEqualTo(RecoveryPolicy.custom()
			.sessionExpiry(true)
			.expiryOnBadRequest(true)
			.brokenStream(true)
			.resumptionAttempts(5)
			.trustAnnotations(true)
			.build());
		assertThat(own.springAi().toolPrefix()).isEqualTo("own_");
		assertThat(own.springAi().expose()).isEqualTo(Expose.NON_DESTRUCTIVE);
		McpUpstreamSettings inherits = upstreams.get("inherits");
		assertThat(((Http) inherits.transport()).connectTimeout()).isEqualTo(Duration.ofSeconds(2));
		assertThat(inherits.protocol()).isEqualTo(ProtocolMode.LEGACY);
		assertThat(inherits.requestTimeout()).isEqualTo(Duration.ofSeconds(7));
		assertThat(inherits.handshakeTimeout()).isEqualTo(Duration.ofSeconds(4));
		assertThat(inherits.maxMessageBytes()).isEqualTo(1024 * 1024);
		assertThat(inherits.catalogueTtl()).isZero();
		assertThat(inherits.listenForChanges()).isFalse();
		assertThat(inherits.keepaliveInterval()).isEqualTo(Duration.ofSeconds(20));
		assertThat(inherits.serverLogLevel()).isEqualTo("warning");
		assertThat(inherits.recoveryPolicy()).isEqualTo(RecoveryPolicy.custom()
			.sessionExpiry(false)
			.expiryOnBadRequest(false)
			.brokenStream(false)
			.resumptionAttempts(0)
			.trustAnnotations(false)
			.build());
		assertThat(inherits.springAi().toolPrefix()).isEqualTo("any_");
		assertThat(inherits.springAi().expose()).isEqualTo(Expose.READ_ONLY);
	}

	@Test
	void whenToolCallsBecomeTasksIsAnUpstreamsOwnElseTheDefaultElseUnsafe() {
		McpxUpstreams upstreams = upstreams("mcpx.clients.own.url", "http://127.0.0.1:1/mcp",
				"mcpx.clients.inherits.url", "http://127.0.0.1:2/mcp", "mcpx.defaults.tasks.augment", "always",
				"mcpx.clients.own.tasks.augment", "never");
		assertThat(upstreams.get("own").taskAugmentation()).isEqualTo(TaskAugmentation.NEVER);
		assertThat(upstreams.get("inherits").taskAugmentation()).isEqualTo(TaskAugmentation.ALWAYS);
		assertThat(upstreams("mcpx.clients.plain.url", "http://127.0.0.1:1/mcp").get("plain").taskAugmentation())
			.isEqualTo(TaskAugmentation.UNSAFE);
	}

	@Test
	void whetherTheTasksExtensionIsDeclaredIsAnUpstreamsOwnElseTheDefaultElseOn() {
		McpxUpstreams upstreams = upstreams("mcpx.clients.own.url", "http://127.0.0.1:1/mcp",
				"mcpx.clients.inherits.url", "http://127.0.0.1:2/mcp", "mcpx.defaults.tasks.enabled", "false",
				"mcpx.clients.own.tasks.enabled", "true");
		assertThat(upstreams.get("own").recoveryPolicy().taskExtension()).isTrue();
		assertThat(upstreams.get("inherits").recoveryPolicy().taskExtension()).isFalse();
		assertThat(upstreams.get("inherits").property("tasks.enabled")).isEqualTo("mcpx.defaults.tasks.enabled");
		assertThat(upstreams("mcpx.clients.plain.url", "http://127.0.0.1:1/mcp").get("plain").recoveryPolicy()
			.taskExtension()).isTrue();
	}

	@Test
	void mapsAndListsAreMergedWithTheDefaultsAsTheirPropertiesSay() {
		McpxUpstreams upstreams = upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp",
				"mcpx.defaults.headers.X-Env", "test", "mcpx.defaults.headers.X-Team", "defaults",
				"mcpx.clients.weather.headers.X-Team", "weather",
				"mcpx.defaults.recovery.tools.delete", "never", "mcpx.defaults.recovery.tools.get", "never",
				"mcpx.clients.weather.recovery.tools.get", "always",
				"mcpx.defaults.spring-ai.include[0]", "get*", "mcpx.clients.weather.spring-ai.include[0]", "list*",
				"mcpx.defaults.spring-ai.exclude[0]", "admin_*", "mcpx.clients.weather.spring-ai.exclude[0]", "drop");
		McpUpstreamSettings weather = upstreams.get("weather");
		// an upstream's headers are added to the defaults, replacing a default of the same name
		assertThat(((Http) weather.transport()).headers()).containsExactly(Map.entry("X-Env", "test"),
				Map.entry("X-Team", "weather"));
		assertThat(weather.recoveryPolicy().toolReplay("delete")).isEqualTo(ToolReplay.NEVER);
		assertThat(weather.recoveryPolicy().toolReplay("get")).isEqualTo(ToolReplay.ALWAYS);
		// include replaces the defaults' list, exclude is added to it
		assertThat(weather.springAi().include()).containsExactly("list*");
		assertThat(weather.springAi().exclude()).containsExactly("admin_*", "drop");
	}

	@Test
	void aStdioUpstreamHasItsCommandAndRestartPolicy() {
		McpUpstreamSettings files = upstreams("mcpx.clients.files.command", " npx ", "mcpx.clients.files.args[0]",
				"-y", "mcpx.clients.files.env.TOKEN", "secret", "mcpx.clients.files.working-directory", "/tmp",
				"mcpx.clients.files.inherit-env", "false", "mcpx.defaults.restart.max-restarts", "2",
				"mcpx.clients.files.restart.window", "5m", "mcpx.defaults.headers.X-Only-Http", "1")
			.get("files");
		assertThat(files.transport()).isInstanceOfSatisfying(Stdio.class, (stdio) -> {
			assertThat(stdio.command()).isEqualTo(
					new StdioCommand("npx", List.of("-y"), Map.of("TOKEN", "secret"), Path.of("/tmp"), false));
			assertThat(stdio.restartPolicy())
				.isEqualTo(ProcessRestartPolicy.custom().maxRestarts(2).window(Duration.ofMinutes(5)).build());
		});
		assertThat(files.toString()).doesNotContain("secret");
	}

	@Test
	void theListingBoundIsConnectAndHandshakeOverHttpAndTheHandshakeAloneOverStdio() {
		McpxUpstreams upstreams = upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp",
				"mcpx.clients.files.command", "npx", "mcpx.defaults.connect-timeout", "2s",
				"mcpx.defaults.handshake-timeout", "3s", "mcpx.clients.files.handshake-timeout", "4s");
		assertThat(upstreams.get("weather").listingBound()).isEqualTo(Duration.ofSeconds(5));
		assertThat(upstreams.get("files").listingBound()).isEqualTo(Duration.ofSeconds(4));
	}

	@Test
	void anUpstreamNotDeclaredGetsTheDefaultsAndNoTransport() {
		McpUpstreamSettings own = upstreams("mcpx.defaults.connect-timeout", "2s", "mcpx.defaults.request-timeout",
				"9s", "mcpx.defaults.spring-ai.expose", "read-only", "mcpx.defaults.recovery.trust-annotations", "false")
			.get("built-by-the-application");
		assertThat(own.transport()).isNull();
		assertThat(own.requestTimeout()).isEqualTo(Duration.ofSeconds(9));
		assertThat(own.springAi().expose()).isEqualTo(Expose.READ_ONLY);
		assertThat(own.recoveryPolicy().trustAnnotations()).isFalse();
		// listed as an HTTP upstream would be
		assertThat(own.listingBound()).isEqualTo(Duration.ofSeconds(2).plus(McpClientBuilder.DEFAULT_HANDSHAKE_TIMEOUT));
	}

	@Test
	void eachUpstreamIsResolvedOnceAndAllKeepsTheDeclarationOrder() {
		McpxUpstreams upstreams = upstreams("mcpx.clients.b.url", "http://127.0.0.1:1/mcp", "mcpx.clients.a.url",
				"http://127.0.0.1:2/mcp");
		McpUpstreamSettings b = upstreams.get("b");
		assertThat(upstreams.get("b")).isSameAs(b);
		assertThat(upstreams.all()).containsOnlyKeys("b", "a");
		assertThat(upstreams.all().keySet()).containsExactly("b", "a");
		assertThat(upstreams.all().get("b")).isSameAs(b);
	}

	@Test
	void theSamePropertiesResolveToEqualSettingsAndAChangedOneToOthers() {
		String[] http = { "mcpx.clients.weather.url", "http://127.0.0.1:1/mcp", "mcpx.defaults.headers.X-Env", "test",
				"mcpx.clients.weather.recovery.tools.get", "always" };
		String[] stdio = { "mcpx.clients.files.command", "npx", "mcpx.clients.files.restart.max-restarts", "2" };
		assertThat(upstreams(http).get("weather")).isEqualTo(upstreams(http).get("weather"))
			.hasSameHashCodeAs(upstreams(http).get("weather"));
		assertThat(upstreams(stdio).get("files")).isEqualTo(upstreams(stdio).get("files"))
			.hasSameHashCodeAs(upstreams(stdio).get("files"));
		assertThat(upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp", "mcpx.defaults.headers.X-Env",
				"prod", "mcpx.clients.weather.recovery.tools.get", "always")
			.get("weather")).isNotEqualTo(upstreams(http).get("weather"));
		assertThat(upstreams("mcpx.clients.files.command", "npx", "mcpx.clients.files.restart.max-restarts", "3")
			.get("files")).isNotEqualTo(upstreams(stdio).get("files"));
		// the same value from mcpx.defaults rather than the upstream's own
		assertThat(upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp", "mcpx.defaults.request-timeout",
				"5s")
			.get("weather")).isNotEqualTo(upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp",
					"mcpx.clients.weather.request-timeout", "5s")
				.get("weather"));
	}

	@Test
	void theOriginOfEverySettingIsKnown() {
		McpUpstreamSettings weather = upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp",
				"mcpx.defaults.server-log-level", "warning", "mcpx.clients.weather.request-timeout", "8s",
				"mcpx.defaults.request-timeout", "9s")
			.get("weather");
		assertThat(weather.property("server-log-level")).isEqualTo("mcpx.defaults.server-log-level");
		assertThat(weather.property("request-timeout")).isEqualTo("mcpx.clients.weather.request-timeout");
		// set nowhere: where the user would set it for this upstream
		assertThat(weather.property("catalogue-ttl")).isEqualTo("mcpx.clients.weather.catalogue-ttl");
	}

	@Test
	void aBadValueIsReportedUnderThePropertyItCameFrom() {
		assertInvalid("mcpx.defaults.recovery.broken-stream.resumption-attempts", "must not be negative, was -1",
				"mcpx.clients.weather.url", "http://127.0.0.1:1/mcp",
				"mcpx.defaults.recovery.broken-stream.resumption-attempts", "-1");
		assertInvalid("mcpx.clients.weather.recovery.broken-stream.resumption-attempts", "must not be negative",
				"mcpx.clients.weather.url", "http://127.0.0.1:1/mcp",
				"mcpx.clients.weather.recovery.broken-stream.resumption-attempts", "-2",
				"mcpx.defaults.recovery.broken-stream.resumption-attempts", "-1");
		assertInvalid("mcpx.defaults.keepalive-interval", "positive duration, was 0s", "mcpx.clients.weather.url",
				"http://127.0.0.1:1/mcp", "mcpx.defaults.keepalive-interval", "0s");
		assertInvalid("mcpx.clients.weather.max-message-size", "between 1B and 2GB, was 0B", "mcpx.clients.weather.url",
				"http://127.0.0.1:1/mcp", "mcpx.clients.weather.max-message-size", "0");
		assertInvalid("mcpx.clients.weather.catalogue-ttl", "zero or a positive duration, was -1500ms",
				"mcpx.clients.weather.url", "http://127.0.0.1:1/mcp", "mcpx.clients.weather.catalogue-ttl", "-1500ms");
		assertInvalid("mcpx.clients.weather.url", "not a valid URL", "mcpx.clients.weather.url",
				"http://weather example/mcp");
	}

	@Test
	void aDefaultOverriddenByTheUpstreamIsNotChecked() {
		McpUpstreamSettings weather = upstreams("mcpx.clients.weather.url", "http://127.0.0.1:1/mcp",
				"mcpx.defaults.request-timeout", "-1s", "mcpx.clients.weather.request-timeout", "1s")
			.get("weather");
		assertThat(weather.requestTimeout()).isEqualTo(Duration.ofSeconds(1));
	}

	private static void assertInvalid(String property, String problem, String... properties) {
		McpxUpstreams upstreams = upstreams(properties);
		assertThatExceptionOfType(InvalidMcpxPropertyException.class).isThrownBy(upstreams::all)
			.satisfies((ex) -> {
				assertThat(ex.property()).isEqualTo(property);
				assertThat(ex.problem()).contains(problem);
			});
	}

	private static McpxUpstreams upstreams(String... keysAndValues) {
		Map<String, String> source = new LinkedHashMap<>();
		for (int i = 0; i < keysAndValues.length; i += 2) {
			source.put(keysAndValues[i], keysAndValues[i + 1]);
		}
		McpxProperties properties = new Binder(new MapConfigurationPropertySource(source))
			.bindOrCreate("mcpx", McpxProperties.class);
		return new McpxUpstreams(properties, null);
	}

}
