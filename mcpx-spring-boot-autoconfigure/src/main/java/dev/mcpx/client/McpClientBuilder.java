package dev.mcpx.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.error.McpInputRequiredException;
import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.internal.session.ServerLog;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.recovery.DefaultReplayGate;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.TaskAugmentation;
import dev.mcpx.client.recovery.ReplayGate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Builds an {@link McpClient}. Not thread-safe; build once, share the client.
 *
 * <pre>{@code
 * McpClient weather = McpClient.builder("weather", URI.create("https://weather.example/mcp"))
 *     .header("Authorization", "Bearer " + token)
 *     .requestTimeout(Duration.ofSeconds(10))
 *     .build();
 * }</pre>
 */
public final class McpClientBuilder {

	/** Default bound of one request: long enough for a slow tool, short enough to notice a hung one. */
	public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

	/** Default bound of establishing a TCP (and TLS) connection. */
	public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

	/** Default bound of one {@code initialize} handshake, independent of any caller's timeout. */
	public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * Default freshness of a listing from a server that gives no {@code ttlMs} (legacy
	 * servers): long enough to spare round trips, short enough to notice a change a server
	 * does not announce. Recoveries and {@code list_changed} notifications drop it earlier.
	 */
	public static final Duration DEFAULT_CATALOGUE_TTL = Duration.ofMinutes(5);

	/** Default largest message accepted from a server: a bound on memory per request. */
	public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

	/** Default number of users an upstream that acts for each user keeps a session for at once. */
	public static final int DEFAULT_MAX_USER_SESSIONS = 100;

	/** Default time after which an idle user's session is ended. */
	public static final Duration DEFAULT_USER_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);

	final BuilderState state;

	McpClientBuilder(String name, URI url) {
		this.state = new BuilderState(BuilderSettings.validName(name), BuilderSettings.validUrl(name, url), null, null);
	}

	McpClientBuilder(String name, McpEndpoints endpoints) {
		this.state = new BuilderState(BuilderSettings.validName(name), null,
				Objects.requireNonNull(endpoints, "endpoints"), null);
	}

	McpClientBuilder(String name, StdioCommand command) {
		this.state = new BuilderState(BuilderSettings.validName(name), null, null,
				Objects.requireNonNull(command, "command"));
	}

	/** The upstream's name. */
	String name() {
		return this.state.name;
	}

	/**
	 * Sets when the server process of a stdio upstream is started again after it ended
	 * unexpectedly. Ignored for an HTTP upstream.
	 * @param policy the restart policy
	 * @return this builder
	 */
	public McpClientBuilder restartPolicy(ProcessRestartPolicy policy) {
		this.state.restartPolicy = Objects.requireNonNull(policy, "policy");
		return this;
	}

	/**
	 * Uses the given builder for the HTTP client, so an application's HTTP settings
	 * (request factory, interceptors, observation) apply. The builder is cloned. Without
	 * one, the client sends straight on a JDK {@link HttpClient}, shared by every client built
	 * without one and with the same connect timeout, and built on first use.
	 * @param restClientBuilder the builder
	 * @return this builder
	 */
	public McpClientBuilder restClientBuilder(RestClient.Builder restClientBuilder) {
		this.state.restClientBuilder = restClientBuilder;
		this.state.restClientBuilderOnFirstUse = null;
		return this;
	}

	/**
	 * Uses the builder the supplier gives when the client sends its first request, so that
	 * nothing of the HTTP client (a JDK client builds its TLS context, for one) is built
	 * before first use. The builder is cloned. Replaces a builder given before.
	 * @param restClientBuilder supplies the builder, once
	 * @return this builder
	 */
	public McpClientBuilder restClientBuilder(Supplier<RestClient.Builder> restClientBuilder) {
		this.state.restClientBuilderOnFirstUse = Objects.requireNonNull(restClientBuilder, "restClientBuilder");
		this.state.restClientBuilder = null;
		return this;
	}

	/**
	 * Adds a header sent with every HTTP request to the upstream (for example
	 * {@code Authorization}). Values are never logged.
	 * @param name the header name
	 * @param value the header value
	 * @return this builder
	 */
	public McpClientBuilder header(String name, String value) {
		this.state.headers.put(name, value);
		return this;
	}

	/**
	 * Adds headers computed per HTTP request, after the fixed ones: for tokens that
	 * change.
	 * @param provider adds or replaces headers
	 * @return this builder
	 */
	public McpClientBuilder headersProvider(Consumer<HttpHeaders> provider) {
		this.state.headersProvider = Objects.requireNonNull(provider, "provider");
		return this;
	}

	/**
	 * Sets the bound of one request, from sending it to its response.
	 * @param timeout a positive duration; default {@link #DEFAULT_REQUEST_TIMEOUT}
	 * @return this builder
	 */
	public McpClientBuilder requestTimeout(Duration timeout) {
		this.state.requestTimeout = BuilderSettings.positive(timeout, "request timeout");
		return this;
	}

	/**
	 * Sets the bound of establishing a connection. Applies only when this builder creates
	 * the HTTP client (no {@link #restClientBuilder(RestClient.Builder)} given).
	 * @param timeout a positive duration; default {@link #DEFAULT_CONNECT_TIMEOUT}
	 * @return this builder
	 */
	public McpClientBuilder connectTimeout(Duration timeout) {
		this.state.connectTimeout = BuilderSettings.positive(timeout, "connect timeout");
		return this;
	}

	/**
	 * Sets the bound of one {@code initialize} handshake, which a recovery runs on behalf of
	 * every waiting caller, so no single caller's deadline applies to it.
	 * @param timeout a positive duration; default {@link #DEFAULT_HANDSHAKE_TIMEOUT}
	 * @return this builder
	 */
	public McpClientBuilder handshakeTimeout(Duration timeout) {
		this.state.handshakeTimeout = BuilderSettings.positive(timeout, "handshake timeout");
		return this;
	}

	/**
	 * Sets the largest message accepted from the server; a larger one fails the request.
	 * @param bytes a positive size; default {@link #DEFAULT_MAX_MESSAGE_BYTES}
	 * @return this builder
	 */
	public McpClientBuilder maxMessageBytes(int bytes) {
		if (bytes <= 0) {
			throw new IllegalArgumentException("The maximum message size must be positive, was " + bytes);
		}
		this.state.maxMessageBytes = bytes;
		return this;
	}

	/**
	 * Sets the JSON mapper for protocol messages and tool arguments.
	 * @param jsonMapper the mapper
	 * @return this builder
	 */
	public McpClientBuilder jsonMapper(JsonMapper jsonMapper) {
		this.state.jsonMapper = jsonMapper;
		return this;
	}

	/**
	 * Sets how the client introduces itself in {@code initialize}.
	 * @param clientInfo the name and version
	 * @return this builder
	 */
	public McpClientBuilder clientInfo(Implementation clientInfo) {
		this.state.clientInfo = Objects.requireNonNull(clientInfo, "clientInfo");
		return this;
	}

	/**
	 * Receives the notifications the server sends.
	 * @param listener the listener; called on the thread that read the notification
	 * @return this builder
	 */
	public McpClientBuilder notificationListener(McpNotificationListener listener) {
		this.state.notificationListener = Objects.requireNonNull(listener, "listener");
		return this;
	}

	/**
	 * Sets how the client recovers.
	 * @param policy the policy; default {@link RecoveryPolicy#ofDefaults()}
	 * @return this builder
	 */
	public McpClientBuilder recoveryPolicy(RecoveryPolicy policy) {
		this.state.recoveryPolicy = Objects.requireNonNull(policy, "policy");
		return this;
	}

	/**
	 * Sets when a call of a tool whose task support is {@code optional} asks the server for a
	 * task (2025-11-25 basic/utilities/tasks §Tool-Level Negotiation); a {@code required}
	 * tool is always called as a task, a {@code forbidden} one never. A call that became a
	 * task is followed to its outcome by its task id, and never sent again.
	 * @param augmentation the choice; default {@link TaskAugmentation#UNSAFE}: a task exactly
	 * when the call would not be sent again after a lost response
	 * @return this builder
	 */
	public McpClientBuilder taskAugmentation(TaskAugmentation augmentation) {
		this.state.taskAugmentation = Objects.requireNonNull(augmentation, "augmentation");
		return this;
	}

	/**
	 * Sets the task journal: each task the client starts is written to it when its id arrives,
	 * updated at each change of status, and ended with its outcome, whose
	 * {@link dev.mcpx.client.event.McpTaskCompletedEvent} is published only when that write
	 * succeeded (see {@link McpTaskStore}). A journal that cannot be written never fails a call.
	 * @param store the journal; by default none, and tasks outlive nothing but broken streams and
	 * expired sessions
	 * @return this builder
	 */
	public McpClientBuilder taskStore(McpTaskStore store) {
		this.state.taskStore = Objects.requireNonNull(store, "store");
		return this;
	}

	/**
	 * Replaces the replay gate, which decides whether a request may be sent a second time.
	 * @param gate the gate; by default a {@link DefaultReplayGate} of the recovery policy
	 * @return this builder
	 */
	public McpClientBuilder replayGate(ReplayGate gate) {
		this.state.replayGate = gate;
		return this;
	}

	/**
	 * Adds a listener of the client's recovery events.
	 * @param listener the listener
	 * @return this builder
	 */
	public McpClientBuilder eventListener(McpEventListener listener) {
		this.state.eventListeners.add(Objects.requireNonNull(listener, "listener"));
		return this;
	}

	/**
	 * Supplies credentials per request, refreshed once when the upstream answers 401.
	 * @param credentials the credentials
	 * @return this builder
	 */
	public McpClientBuilder credentials(McpCredentials credentials) {
		this.state.credentials = credentials;
		return this;
	}

	/**
	 * Makes every call act for the user of the calling thread, never as the application: each
	 * user gets credentials of their own from the identity and, in the legacy era, a session of
	 * their own (servers bind a session to the identity that opened it), kept in a bounded pool
	 * ({@link #userSessions(int, Duration)}). A call made without a user fails with
	 * {@link dev.mcpx.client.error.McpNoUserException}. Replaces {@link #credentials(McpCredentials)}.
	 * @param identity who each call is for, and their credentials
	 * @return this builder
	 */
	public McpClientBuilder userIdentity(McpUserIdentity identity) {
		if (this.state.command != null || this.state.url == null) {
			throw new IllegalArgumentException("Only an upstream with a URL can act for each user: a stdio upstream "
					+ "has no credentials, and the replicas of a discovered one no single resource to obtain them for");
		}
		this.state.userIdentity = Objects.requireNonNull(identity, "identity");
		return this;
	}

	/**
	 * Bounds the users' sessions of an upstream that acts for each user: at most {@code max}
	 * users at once (the least recently used idle one is ended to make room), and a user idle
	 * for {@code idleTimeout} is ended. An ended legacy session is closed with {@code DELETE}.
	 * @param max how many users at once, at least 1; {@value #DEFAULT_MAX_USER_SESSIONS} by default
	 * @param idleTimeout how long an idle user's session is kept; 30 minutes by default
	 * @return this builder
	 */
	public McpClientBuilder userSessions(int max, Duration idleTimeout) {
		if (max < 1) {
			throw new IllegalArgumentException("The maximum number of user sessions must be at least 1, was " + max);
		}
		this.state.maxUserSessions = max;
		this.state.userSessionIdleTimeout = BuilderSettings.positive(idleTimeout, "idle timeout of user sessions");
		return this;
	}

	/**
	 * Pings an open session at this interval, so that an expiry is found and recovered
	 * before a caller meets it. Off by default.
	 * @param interval a positive interval, absent for none
	 * @return this builder
	 */
	public McpClientBuilder keepaliveInterval(@Nullable Duration interval) {
		this.state.keepaliveInterval = (interval != null) ? BuilderSettings.positive(interval, "keepalive interval") : null;
		return this;
	}

	/**
	 * Sets the protocol era to speak.
	 * @param protocol the mode; default {@link ProtocolMode#AUTO}
	 * @return this builder
	 */
	public McpClientBuilder protocol(ProtocolMode protocol) {
		this.state.protocol = Objects.requireNonNull(protocol, "protocol");
		return this;
	}

	/**
	 * Answers the input a server asks for: legacy server requests ({@code elicitation/create},
	 * {@code sampling/createMessage}, {@code roots/list}, declared in {@code initialize} from
	 * its supported methods) and modern input rounds. Without one, a legacy server's request
	 * is answered method-not-found and a modern request that needs input fails with
	 * {@link McpInputRequiredException}.
	 * @param inputHandler the handler
	 * @return this builder
	 */
	public McpClientBuilder inputHandler(McpInputHandler inputHandler) {
		this.state.inputHandler = inputHandler;
		return this;
	}

	/**
	 * Observes every request as {@code mcpx.client.requests} (upstream, method, outcome),
	 * so that metrics and tracing work where the application has them.
	 * @param observationRegistry the registry; default none
	 * @return this builder
	 */
	public McpClientBuilder observationRegistry(ObservationRegistry observationRegistry) {
		this.state.observationRegistry = Objects.requireNonNull(observationRegistry, "observationRegistry");
		return this;
	}

	/**
	 * Sets how long a listing stays fresh when the server gives no {@code ttlMs}.
	 * @param ttl zero or positive; zero disables caching for such servers; default
	 * {@link #DEFAULT_CATALOGUE_TTL}
	 * @return this builder
	 */
	public McpClientBuilder catalogueTtl(Duration ttl) {
		if (ttl == null || ttl.isNegative()) {
			throw new IllegalArgumentException("The catalogue TTL must be zero or positive, was " + ttl);
		}
		this.state.catalogueTtl = ttl;
		return this;
	}

	/**
	 * Whether the client keeps a notification stream open to learn of list changes (legacy
	 * GET stream, modern {@code subscriptions/listen}) when the server announces them.
	 * @param listen {@code false} to rely on the catalogue's freshness alone; default on
	 * @return this builder
	 */
	public McpClientBuilder listenForChanges(boolean listen) {
		this.state.listenForChanges = listen;
		return this;
	}

	/**
	 * Asks the server for log messages from this level up: in the legacy era with
	 * {@code logging/setLevel} after every handshake, so a recovered session keeps it; in the
	 * 2026-07-28 era with {@code io.modelcontextprotocol/logLevel} in every request's
	 * {@code _meta}, without which the server sends none. Whatever the level, the
	 * server's {@code notifications/message} are written to the logger
	 * {@code dev.mcpx.upstream.<name>}.
	 * @param level {@code debug}, {@code info}, {@code notice}, {@code warning},
	 * {@code error}, {@code critical}, {@code alert} or {@code emergency}; absent to ask
	 * nothing (the default)
	 * @return this builder
	 */
	public McpClientBuilder serverLogLevel(@Nullable String level) {
		this.state.serverLogLevel = (level != null) ? ServerLog.validLevel(level) : null;
		return this;
	}

	/**
	 * Sets how long the input handler may take to answer a server's request (an
	 * elicitation, a sampling, a roots listing) before the server is answered with an error.
	 * @param timeout a positive duration; default the request timeout
	 * @return this builder
	 */
	public McpClientBuilder inputHandlerTimeout(Duration timeout) {
		this.state.inputHandlerTimeout = BuilderSettings.positive(timeout, "input handler timeout");
		return this;
	}

	/**
	 * Sets the clock of the client's status timestamps.
	 * @param clock the clock; default UTC system time
	 * @return this builder
	 */
	public McpClientBuilder clock(Clock clock) {
		this.state.clock = Objects.requireNonNull(clock, "clock");
		return this;
	}

	/**
	 * Builds the client. It connects on first use.
	 * <p>
	 * The settings are taken as they are now, and the client is assembled from them
	 * ({@code docs/architecture.md}, "Assembly"); the builder may go on to build others.
	 * @return the client
	 */
	public McpClient build() {
		return BuilderSettings.assemble(this.state);
	}

}
