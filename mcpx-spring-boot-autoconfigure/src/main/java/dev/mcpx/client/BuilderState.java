package dev.mcpx.client;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ReplayGate;
import dev.mcpx.client.recovery.TaskAugmentation;
import tools.jackson.databind.json.JsonMapper;

/**
 * What an {@link McpClientBuilder} holds so far, with its defaults: the builder's setters
 * validate and write here, and {@link BuilderSettings} settles it into the settings a client
 * is assembled from. Kept apart so the public builder reads as its setters alone.
 */
final class BuilderState {

	private static final Implementation DEFAULT_CLIENT_INFO = new Implementation("mcpx",
			Objects.requireNonNullElse(BuilderState.class.getPackage().getImplementationVersion(), "dev"), null);

	final String name;

	final @Nullable URI url;

	final @Nullable McpEndpoints endpoints;

	final @Nullable StdioCommand command;

	ProcessRestartPolicy restartPolicy = ProcessRestartPolicy.ofDefaults();

	RestClient.@Nullable Builder restClientBuilder;

	@Nullable Supplier<RestClient.Builder> restClientBuilderOnFirstUse;

	final Map<String, String> headers = new LinkedHashMap<>();

	Consumer<HttpHeaders> headersProvider = (headers) -> {
	};

	Duration requestTimeout = McpClientBuilder.DEFAULT_REQUEST_TIMEOUT;

	Duration connectTimeout = McpClientBuilder.DEFAULT_CONNECT_TIMEOUT;

	Duration handshakeTimeout = McpClientBuilder.DEFAULT_HANDSHAKE_TIMEOUT;

	int maxMessageBytes = McpClientBuilder.DEFAULT_MAX_MESSAGE_BYTES;

	@Nullable JsonMapper jsonMapper;

	Implementation clientInfo = DEFAULT_CLIENT_INFO;

	McpNotificationListener notificationListener = (upstream, method, params) -> {
	};

	RecoveryPolicy recoveryPolicy = RecoveryPolicy.ofDefaults();

	@Nullable ReplayGate replayGate;

	TaskAugmentation taskAugmentation = TaskAugmentation.UNSAFE;

	@Nullable McpTaskStore taskStore;

	final List<McpEventListener> eventListeners = new ArrayList<>();

	@Nullable McpCredentials credentials;

	@Nullable McpUserIdentity userIdentity;

	int maxUserSessions = McpClientBuilder.DEFAULT_MAX_USER_SESSIONS;

	Duration userSessionIdleTimeout = McpClientBuilder.DEFAULT_USER_SESSION_IDLE_TIMEOUT;

	@Nullable Duration keepaliveInterval;

	ProtocolMode protocol = ProtocolMode.AUTO;

	@Nullable McpInputHandler inputHandler;

	ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	Clock clock = Clock.systemUTC();

	Duration catalogueTtl = McpClientBuilder.DEFAULT_CATALOGUE_TTL;

	boolean listenForChanges = true;

	@Nullable String serverLogLevel;

	@Nullable Duration inputHandlerTimeout;

	BuilderState(String name, @Nullable URI url, @Nullable McpEndpoints endpoints, @Nullable StdioCommand command) {
		this.name = name;
		this.url = url;
		this.endpoints = endpoints;
		this.command = command;
	}

}
