package dev.mcpx.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpInputRequiredException;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.events.McpEvents;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.recovery.CredentialsRefresh;
import dev.mcpx.client.internal.recovery.RecoveringExecutor;
import dev.mcpx.client.internal.session.BackgroundTasks;
import dev.mcpx.client.internal.session.EraDetectingSession;
import dev.mcpx.client.internal.session.Exchange;
import dev.mcpx.client.internal.session.InputAnswers;
import dev.mcpx.client.internal.session.LegacySession;
import dev.mcpx.client.internal.session.ListenLoop;
import dev.mcpx.client.internal.session.ModernSession;
import dev.mcpx.client.internal.session.ProgressRoutes;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.ServerLog;
import dev.mcpx.client.internal.session.ServerMessageListener;
import dev.mcpx.client.internal.session.ServerRequests;
import dev.mcpx.client.internal.session.SessionSettings;
import dev.mcpx.client.internal.session.SessionSetup;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.internal.session.Subscriptions;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.internal.transport.McpTransport;
import dev.mcpx.client.internal.transport.stdio.LaunchSpec;
import dev.mcpx.client.internal.transport.stdio.StdioTransport;
import dev.mcpx.client.internal.transport.Watchdog;
import dev.mcpx.client.internal.transport.http.HttpLeg;
import dev.mcpx.client.internal.transport.http.HttpTransport;
import dev.mcpx.client.internal.transport.http.SharedHttpClients;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.recovery.DefaultReplayGate;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ReplayGate;
import tools.jackson.databind.JsonNode;
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

	private static final Implementation DEFAULT_CLIENT_INFO = new Implementation("mcpx",
			Objects.requireNonNullElse(McpClientBuilder.class.getPackage().getImplementationVersion(), "dev"), null);

	private final String name;

	private final @Nullable URI url;

	private final @Nullable StdioCommand command;

	private ProcessRestartPolicy restartPolicy = ProcessRestartPolicy.ofDefaults();

	private RestClient.Builder restClientBuilder;

	private Supplier<RestClient.Builder> restClientBuilderOnFirstUse;

	private final Map<String, String> headers = new LinkedHashMap<>();

	private Consumer<HttpHeaders> headersProvider = (headers) -> {
	};

	private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;

	private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;

	private Duration handshakeTimeout = DEFAULT_HANDSHAKE_TIMEOUT;

	private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;

	private JsonMapper jsonMapper;

	private Implementation clientInfo = DEFAULT_CLIENT_INFO;

	private McpNotificationListener notificationListener = (upstream, method, params) -> {
	};

	private RecoveryPolicy recoveryPolicy = RecoveryPolicy.ofDefaults();

	private ReplayGate replayGate;

	private final List<McpEventListener> eventListeners = new ArrayList<>();

	private McpCredentials credentials;

	private Duration keepaliveInterval;

	private ProtocolMode protocol = ProtocolMode.AUTO;

	private McpInputHandler inputHandler;

	private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

	private Clock clock = Clock.systemUTC();

	private Duration catalogueTtl = DEFAULT_CATALOGUE_TTL;

	private boolean listenForChanges = true;

	private @Nullable String serverLogLevel;

	private @Nullable Duration inputHandlerTimeout;

	McpClientBuilder(String name, URI url) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("The upstream name must not be empty");
		}
		this.name = name;
		this.url = validateUrl(name, url);
		this.command = null;
	}

	McpClientBuilder(String name, StdioCommand command) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("The upstream name must not be empty");
		}
		this.name = name;
		this.url = null;
		this.command = Objects.requireNonNull(command, "command");
	}

	/**
	 * Sets when the server process of a stdio upstream is started again after it ended
	 * unexpectedly. Ignored for an HTTP upstream.
	 * @param policy the restart policy
	 * @return this builder
	 */
	public McpClientBuilder restartPolicy(ProcessRestartPolicy policy) {
		this.restartPolicy = Objects.requireNonNull(policy, "policy");
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
		this.restClientBuilder = restClientBuilder;
		this.restClientBuilderOnFirstUse = null;
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
		this.restClientBuilderOnFirstUse = Objects.requireNonNull(restClientBuilder, "restClientBuilder");
		this.restClientBuilder = null;
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
		this.headers.put(name, value);
		return this;
	}

	/**
	 * Adds headers computed per HTTP request, after the fixed ones: for tokens that
	 * change.
	 * @param provider adds or replaces headers
	 * @return this builder
	 */
	public McpClientBuilder headersProvider(Consumer<HttpHeaders> provider) {
		this.headersProvider = Objects.requireNonNull(provider, "provider");
		return this;
	}

	/**
	 * Sets the bound of one request, from sending it to its response.
	 * @param timeout a positive duration; default {@link #DEFAULT_REQUEST_TIMEOUT}
	 * @return this builder
	 */
	public McpClientBuilder requestTimeout(Duration timeout) {
		this.requestTimeout = positive(timeout, "request timeout");
		return this;
	}

	/**
	 * Sets the bound of establishing a connection. Applies only when this builder creates
	 * the HTTP client (no {@link #restClientBuilder(RestClient.Builder)} given).
	 * @param timeout a positive duration; default {@link #DEFAULT_CONNECT_TIMEOUT}
	 * @return this builder
	 */
	public McpClientBuilder connectTimeout(Duration timeout) {
		this.connectTimeout = positive(timeout, "connect timeout");
		return this;
	}

	/**
	 * Sets the bound of one {@code initialize} handshake, which a recovery runs on behalf of
	 * every waiting caller, so no single caller's deadline applies to it.
	 * @param timeout a positive duration; default {@link #DEFAULT_HANDSHAKE_TIMEOUT}
	 * @return this builder
	 */
	public McpClientBuilder handshakeTimeout(Duration timeout) {
		this.handshakeTimeout = positive(timeout, "handshake timeout");
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
		this.maxMessageBytes = bytes;
		return this;
	}

	/**
	 * Sets the JSON mapper for protocol messages and tool arguments.
	 * @param jsonMapper the mapper
	 * @return this builder
	 */
	public McpClientBuilder jsonMapper(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
		return this;
	}

	/**
	 * Sets how the client introduces itself in {@code initialize}.
	 * @param clientInfo the name and version
	 * @return this builder
	 */
	public McpClientBuilder clientInfo(Implementation clientInfo) {
		this.clientInfo = Objects.requireNonNull(clientInfo, "clientInfo");
		return this;
	}

	/**
	 * Receives the notifications the server sends.
	 * @param listener the listener; called on the thread that read the notification
	 * @return this builder
	 */
	public McpClientBuilder notificationListener(McpNotificationListener listener) {
		this.notificationListener = Objects.requireNonNull(listener, "listener");
		return this;
	}

	/**
	 * Sets how the client recovers.
	 * @param policy the policy; default {@link RecoveryPolicy#defaults()}
	 * @return this builder
	 */
	public McpClientBuilder recoveryPolicy(RecoveryPolicy policy) {
		this.recoveryPolicy = Objects.requireNonNull(policy, "policy");
		return this;
	}

	/**
	 * Replaces the replay gate, which decides whether a request may be sent a second time.
	 * @param gate the gate; by default a {@link DefaultReplayGate} of the recovery policy
	 * @return this builder
	 */
	public McpClientBuilder replayGate(ReplayGate gate) {
		this.replayGate = gate;
		return this;
	}

	/**
	 * Adds a listener of the client's recovery events.
	 * @param listener the listener
	 * @return this builder
	 */
	public McpClientBuilder eventListener(McpEventListener listener) {
		this.eventListeners.add(Objects.requireNonNull(listener, "listener"));
		return this;
	}

	/**
	 * Supplies credentials per request, refreshed once when the upstream answers 401.
	 * @param credentials the credentials
	 * @return this builder
	 */
	public McpClientBuilder credentials(McpCredentials credentials) {
		this.credentials = credentials;
		return this;
	}

	/**
	 * Pings an open session at this interval, so that an expiry is found and recovered
	 * before a caller meets it. Off by default.
	 * @param interval a positive interval, absent for none
	 * @return this builder
	 */
	public McpClientBuilder keepaliveInterval(@Nullable Duration interval) {
		this.keepaliveInterval = (interval != null) ? positive(interval, "keepalive interval") : null;
		return this;
	}

	/**
	 * Sets the protocol era to speak.
	 * @param protocol the mode; default {@link ProtocolMode#AUTO}
	 * @return this builder
	 */
	public McpClientBuilder protocol(ProtocolMode protocol) {
		this.protocol = Objects.requireNonNull(protocol, "protocol");
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
		this.inputHandler = inputHandler;
		return this;
	}

	/**
	 * Observes every request as {@code mcpx.client.requests} (upstream, method, outcome),
	 * so that metrics and tracing work where the application has them.
	 * @param observationRegistry the registry; default none
	 * @return this builder
	 */
	public McpClientBuilder observationRegistry(ObservationRegistry observationRegistry) {
		this.observationRegistry = Objects.requireNonNull(observationRegistry, "observationRegistry");
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
		this.catalogueTtl = ttl;
		return this;
	}

	/**
	 * Whether the client keeps a notification stream open to learn of list changes (legacy
	 * GET stream, modern {@code subscriptions/listen}) when the server announces them.
	 * @param listen {@code false} to rely on the catalogue's freshness alone; default on
	 * @return this builder
	 */
	public McpClientBuilder listenForChanges(boolean listen) {
		this.listenForChanges = listen;
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
		this.serverLogLevel = (level != null) ? ServerLog.validLevel(level) : null;
		return this;
	}

	/**
	 * Sets how long the input handler may take to answer a server's request (an
	 * elicitation, a sampling, a roots listing) before the server is answered with an error.
	 * @param timeout a positive duration; default the request timeout
	 * @return this builder
	 */
	public McpClientBuilder inputHandlerTimeout(Duration timeout) {
		this.inputHandlerTimeout = positive(timeout, "input handler timeout");
		return this;
	}

	/**
	 * Sets the clock of the client's status timestamps.
	 * @param clock the clock; default UTC system time
	 * @return this builder
	 */
	public McpClientBuilder clock(Clock clock) {
		this.clock = Objects.requireNonNull(clock, "clock");
		return this;
	}

	/**
	 * Builds the client. It connects on first use.
	 * <p>
	 * The assembly, from the wire up (see {@code docs/architecture.md}, "Assembly"): the
	 * transport, the exchange over it, the era's session, the catalogue, the recovery loop
	 * over the session, and the client over the loop. Each piece is built once, complete.
	 * @return the client
	 */
	public McpClient build() {
		JsonRpc jsonRpc = new JsonRpc((this.jsonMapper != null) ? this.jsonMapper : DefaultMapper.INSTANCE);
		ClientStats stats = (this.command != null) ? new ClientStats(this.name, this.command, this.clock)
				: new ClientStats(this.name, this.url, this.clock);
		McpEvents events = new McpEvents(listeners(stats));
		Catalogue catalogue = new Catalogue(this.name, this.catalogueTtl, this.clock, events);
		Watchdog watchdog = new Watchdog(this.name);
		BackgroundTasks background = new BackgroundTasks(this.name);
		Redaction redaction = new Redaction();
		McpTransport transport = transport(jsonRpc, watchdog, redaction, stats);
		InputAnswers answers = inputAnswers();
		ServerRequests serverRequests = new ServerRequests(this.name, jsonRpc, answers,
				(this.inputHandlerTimeout != null) ? this.inputHandlerTimeout : this.requestTimeout, redaction,
				background);
		ProgressRoutes progress = new ProgressRoutes(this.name);
		Subscriptions subscriptions = new Subscriptions(this.name, jsonRpc, background);
		ServerLog serverLog = new ServerLog(this.name, redaction, this.serverLogLevel);
		Exchange exchange = new Exchange(this.name, transport, jsonRpc, watchdog, background,
				notifications(catalogue, serverLog, subscriptions), serverRequests, redaction, progress);
		ProtocolSession session = session(exchange, events, answers, SessionSetup.of(List.of(serverLog, subscriptions)),
				subscriptions);
		RecoveringExecutor executor = new RecoveringExecutor(this.name, session, this.recoveryPolicy, replayGate(),
				catalogue, events, credentialsRefresh());
		ListenLoop listenLoop = this.listenForChanges ? new ListenLoop(this.name, session,
				(state) -> listenWanted(state, subscriptions, serverLog, answers != null),
				subscriptions::mayHaveMissedUpdates, answers != null) : null;
		return new DefaultMcpClient(this.name, jsonRpc, session, executor, catalogue, this.requestTimeout, stats,
				this.observationRegistry, listenLoop, this.keepaliveInterval,
				List.of(watchdog, background, serverRequests, transport), progress, subscriptions,
				serverRequests.declaresRoots());
	}

	/**
	 * The wire: Streamable HTTP to {@code url}, or a stdio server process started from
	 * {@code command} (2025-11-25 basic/transports §stdio), whose status the client shows.
	 */
	private McpTransport transport(JsonRpc jsonRpc, Watchdog watchdog, Redaction redaction, ClientStats stats) {
		if (this.command != null) {
			StdioCommand c = this.command;
			LaunchSpec launch = new LaunchSpec(c.command(), c.args(), c.env(), c.workingDirectory(),
					c.inheritEnv() ? null : StdioCommand.MINIMAL_ENVIRONMENT);
			StdioTransport stdio = new StdioTransport(this.name, launch, this.restartPolicy, jsonRpc,
					this.maxMessageBytes, this.clock);
			stats.process(stdio::status);
			return stdio;
		}
		HttpTransport.Settings settings = new HttpTransport.Settings(this.name, baseHeaders(), this.maxMessageBytes,
				this.recoveryPolicy.expiryOnBadRequest());
		return new HttpTransport(settings, httpLeg(), jsonRpc, watchdog, redaction);
	}

	/**
	 * The HTTP exchanges: through the application's {@code RestClient} when it gave one (built
	 * at the first request when given as a supplier), else straight on a JDK client shared by
	 * every upstream with this connect timeout, built on first use (docs/architecture.md,
	 * "HTTP clients and the hot path").
	 */
	private HttpLeg httpLeg() {
		if (this.restClientBuilder != null) {
			RestClient restClient = onlyBytes(this.restClientBuilder.clone()).build();
			return HttpLeg.throughRestClient(() -> restClient, this.url);
		}
		if (this.restClientBuilderOnFirstUse != null) {
			Supplier<RestClient.Builder> onFirstUse = this.restClientBuilderOnFirstUse;
			return HttpLeg.throughRestClient(SingletonSupplier.of(() -> onlyBytes(onFirstUse.get().clone()).build()),
					this.url);
		}
		Duration timeout = this.connectTimeout;
		return HttpLeg.direct(SharedHttpClients.PROCESS.lease(new JdkClientSettings(timeout),
				() -> McpHttpClients.newJdkClient(timeout)), this.url);
	}

	/** What a JDK client that this builder builds itself is made of: clients of equal settings are shared. */
	private record JdkClientSettings(Duration connectTimeout) {
	}

	/** The client's own status first, then the application's listeners, in order. */
	private List<McpEventListener> listeners(ClientStats stats) {
		List<McpEventListener> listeners = new ArrayList<>();
		listeners.add(stats);
		listeners.addAll(this.eventListeners);
		return listeners;
	}

	/**
	 * Notifications drop the listings they name, server log messages are written, resource
	 * updates reach their subscribers, then everything reaches the application.
	 */
	private ServerMessageListener notifications(Catalogue catalogue, ServerLog serverLog,
			Subscriptions subscriptions) {
		McpNotificationListener application = this.notificationListener;
		return (upstream, method, params) -> {
			catalogue.listChanged(method);
			if (McpMethods.MESSAGE.equals(method)) {
				serverLog.write(params);
			}
			else if (McpMethods.RESOURCES_UPDATED.equals(method)) {
				subscriptions.updated(params);
			}
			application.onNotification(upstream, method, params);
		};
	}

	/**
	 * Whether a stream of unsolicited messages is worth holding open besides list changes:
	 * legacy resource updates come on the GET stream (2025-11-25 server/resources
	 * §Subscriptions, when the server declared {@code subscribe}), modern ones on
	 * {@code subscriptions/listen}; a server asked for a log level sends its messages there too,
	 * and a server may send its requests there when the client declared it answers them.
	 */
	private static boolean listenWanted(SessionState state, Subscriptions subscriptions, ServerLog serverLog,
			boolean answersServerRequests) {
		if (answersServerRequests && state.era() == ProtocolEra.LEGACY) {
			// 2025-11-25 basic/transports §Listening for Messages from the Server: requests
			// unrelated to a client request (an elicitation a tool makes without relating it)
			// arrive only on the GET stream.
			return true;
		}
		if (subscriptions.active() && (state.era() == ProtocolEra.MODERN || (state.capabilities() != null
				&& state.capabilities().path("resources").path("subscribe").asBoolean(false)))) {
			return true;
		}
		return serverLog.setsLevel() && state.capabilities() != null && state.capabilities().has("logging");
	}

	/** The application's input handler seen from inside the client, absent when there is none. */
	private @Nullable InputAnswers inputAnswers() {
		McpInputHandler handler = this.inputHandler;
		if (handler == null) {
			return null;
		}
		String upstream = this.name;
		return new InputAnswers() {

			@Override
			public Set<String> methods() {
				return handler.supportedMethods();
			}

			@Override
			public JsonNode answer(String key, String method, @Nullable JsonNode params, String originalMethod) {
				return handler.answer(new McpInputHandler.InputRequest(upstream, key, method, params, originalMethod));
			}

		};
	}

	private ReplayGate replayGate() {
		return (this.replayGate != null) ? this.replayGate : new DefaultReplayGate(this.recoveryPolicy);
	}

	private @Nullable CredentialsRefresh credentialsRefresh() {
		McpCredentials creds = this.credentials;
		// the seam of refused credentials: the refusal's parsed challenge (status, scope,
		// resource metadata); credentials without a notion of it refresh on 401 only
		return (creds != null) ? (refusal) -> creds.refresh(
				(refusal instanceof McpAuthenticationException auth && auth.challenge() != null) ? auth.challenge()
						: McpAuthChallenge.of(refusal.status(), this.url))
				: null;
	}

	/** The headers every message carries: the fixed ones, the computed ones, the credentials. */
	private Consumer<HttpHeaders> baseHeaders() {
		Map<String, String> fixedHeaders = Map.copyOf(this.headers);
		Consumer<HttpHeaders> provider = this.headersProvider;
		McpCredentials creds = this.credentials;
		return (h) -> {
			fixedHeaders.forEach(h::set);
			provider.accept(h);
			if (creds != null) {
				creds.apply(h);
			}
		};
	}

	private ProtocolSession session(Exchange exchange, McpEvents events, @Nullable InputAnswers answers,
			SessionSetup setup, Subscriptions subscriptions) {
		SessionSettings settings = new SessionSettings(this.name, this.clientInfo, this.requestTimeout,
				this.handshakeTimeout, this.maxMessageBytes);
		LegacySession legacy = new LegacySession(settings, exchange, setup);
		ModernSession modern = new ModernSession(settings, exchange, answers, this.protocol == ProtocolMode.MODERN,
				subscriptions, this.serverLogLevel);
		return switch (this.protocol) {
			case LEGACY -> legacy;
			case MODERN -> modern;
			case AUTO -> new EraDetectingSession(this.name, legacy, modern, this.command != null,
					(state, previous) -> events.publish(
					new McpEraDetectedEvent(this.name, state.era(), state.protocolVersion(), previous)));
		};
	}

	/**
	 * Every body mcpx sends is bytes it encoded itself: the default converters (JSON, XML,
	 * forms, each with its own mapper) would only cost heap per client and a lookup per
	 * request.
	 */
	private static RestClient.Builder onlyBytes(RestClient.Builder builder) {
		ByteArrayHttpMessageConverter bytes = new ByteArrayHttpMessageConverter();
		// A builder an application configured (Boot's) also registers converters when it is
		// built, each default one with a mapper of its own: left as they are, they are built
		// again for every upstream's client. Configured last, this leaves only the bytes.
		return builder.messageConverters(List.of(bytes))
			.configureMessageConverters((converters) -> converters.disableDefaults()
				.configureMessageConvertersList((list) -> {
					list.clear();
					list.add(bytes);
				}));
	}

	/**
	 * The one check of an upstream's URL, for clients built in code and from properties
	 * alike: the auto-configuration reports a refusal under the property that set the URL.
	 */
	private static URI validateUrl(String name, URI url) {
		if (url == null) {
			throw new IllegalArgumentException("The URL of MCP upstream '" + name + "' must be set");
		}
		String scheme = (url.getScheme() != null) ? url.getScheme().toLowerCase(Locale.ROOT) : "";
		if (!scheme.equals("http") && !scheme.equals("https")) {
			throw new IllegalArgumentException("The URL of MCP upstream '" + name + "' must use http or https, "
					+ (scheme.isEmpty() ? "and has no scheme" : "not '" + scheme + "'"));
		}
		if (url.getHost() == null || url.getHost().isEmpty()) {
			throw new IllegalArgumentException("The URL of MCP upstream '" + name + "' has no host");
		}
		if (url.getRawUserInfo() != null) {
			// Credentials in a URL travel into logs and metrics tags; headers never do.
			throw new IllegalArgumentException("The URL of MCP upstream '" + name
					+ "' carries credentials (user-info); send them in a header instead");
		}
		return url;
	}

	private static Duration positive(Duration value, String what) {
		if (value == null || value.isZero() || value.isNegative()) {
			throw new IllegalArgumentException("The " + what + " must be positive, was " + value);
		}
		return value;
	}

	/**
	 * One mapper for every client built without one: a Jackson 3 mapper is immutable and
	 * thread-safe, and each costs tens of kilobytes of caches once used.
	 */
	private static final class DefaultMapper {

		static final JsonMapper INSTANCE = JsonMapper.builder().build();

	}

}
