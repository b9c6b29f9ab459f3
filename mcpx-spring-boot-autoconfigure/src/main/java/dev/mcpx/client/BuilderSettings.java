package dev.mcpx.client;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthChallenge;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.internal.assembly.ClientAssembly;
import dev.mcpx.client.internal.assembly.ClientSettings;
import dev.mcpx.client.internal.assembly.ClientSettings.RestClientOf;
import dev.mcpx.client.internal.assembly.ClientSettings.RestClientOnFirstUse;
import dev.mcpx.client.internal.assembly.ClientSettings.SharedJdkClient;
import dev.mcpx.client.internal.recovery.CredentialsRefresh;
import dev.mcpx.client.internal.session.InputAnswers;
import dev.mcpx.client.internal.transport.stdio.LaunchSpec;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.recovery.DefaultReplayGate;
import tools.jackson.databind.JsonNode;

/**
 * The companion of {@link McpClientBuilder}: the checks its setters make, each refusal an
 * {@link IllegalArgumentException} naming the setting; and what it holds, settled into the
 * settings a client is assembled from: defaults applied, the wire chosen, and the
 * application's types adapted to the small internal interfaces the layers below take (see
 * {@code docs/architecture.md}, "Layers"). Settled at {@link McpClientBuilder#build()}, so
 * a builder changed afterwards changes no client built before.
 */
final class BuilderSettings {

	private BuilderSettings() {
	}

	/** An upstream's name: what its logs, metrics and health are keyed by. */
	static String validName(String name) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("The upstream name must not be empty");
		}
		return name;
	}

	/**
	 * The one check of an upstream's URL, for clients built in code and from properties
	 * alike: the auto-configuration reports a refusal under the property that set the URL.
	 */
	static URI validUrl(String name, URI url) {
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

	static Duration positive(Duration value, String what) {
		if (value == null || value.isZero() || value.isNegative()) {
			throw new IllegalArgumentException("The " + what + " must be positive, was " + value);
		}
		return value;
	}

	/**
	 * Assembles a client from what the builder holds now ({@code docs/architecture.md},
	 * "Assembly"): one client, or for a per-user upstream what {@link PerUserClients}
	 * assembles from the same settled settings ("Per-user upstreams").
	 */
	static McpClient assemble(BuilderState b) {
		McpUserIdentity identity = b.userIdentity;
		if (identity == null) {
			return new DefaultMcpClient(ClientAssembly.assemble(of(b, b.credentials)), b.taskStore);
		}
		return PerUserClients.assemble(b, of(b, null), identity);
	}

	/**
	 * The settings of one user's client of a per-user upstream: the shared ones, with that
	 * user's credentials on every message and refreshed after a refusal, and the application's
	 * listeners as the user's events reach them.
	 */
	static ClientSettings forUser(ClientSettings shared, McpCredentials credentials, URI resource,
			List<McpEventListener> listeners) {
		return withCredentials(shared, credentials, resource, listeners, shared.listenForChanges());
	}

	/**
	 * The settings of the one client of a per-user upstream in the modern era: the shared
	 * ones, with credentials that are the calling user's on each call, and no listen stream
	 * (it would carry one user's token for every user's notifications).
	 */
	static ClientSettings sharedByUsers(ClientSettings shared, McpCredentials callersCredentials, URI resource,
			List<McpEventListener> listeners) {
		return withCredentials(shared, callersCredentials, resource, listeners, false);
	}

	private static ClientSettings withCredentials(ClientSettings shared, McpCredentials credentials, URI resource,
			List<McpEventListener> listeners, boolean listenForChanges) {
		ClientSettings.Wire wire;
		if (shared.wire() instanceof ClientSettings.Replicas replicas) {
			Consumer<HttpHeaders> headers = replicas.headers();
			wire = new ClientSettings.Replicas(replicas.upstream(), replicas.instances(), (h) -> {
				headers.accept(h);
				credentials.apply(h);
			}, replicas.client());
		}
		else {
			ClientSettings.Http http = (ClientSettings.Http) shared.wire();
			Consumer<HttpHeaders> headers = http.headers();
			wire = new ClientSettings.Http(http.url(), (h) -> {
				headers.accept(h);
				credentials.apply(h);
			}, http.client());
		}
		return new ClientSettings(shared.name(), wire, shared.jsonMapper(), shared.clientInfo(),
				shared.requestTimeout(), shared.handshakeTimeout(), shared.maxMessageBytes(), shared.era(),
				shared.recoveryPolicy(), shared.replayGate(), shared.taskAugmentation(),
				credentialsRefresh(credentials, resource),
				listeners, shared.notificationListener(), shared.inputAnswers(),
				shared.inputHandlerTimeout(), shared.serverLogLevel(), shared.catalogueTtl(), listenForChanges,
				shared.keepaliveInterval(), shared.observationRegistry(), shared.clock());
	}

	private static ClientSettings of(BuilderState b, @Nullable McpCredentials credentials) {
		return new ClientSettings(b.name, wire(b, credentials),
				(b.jsonMapper != null) ? b.jsonMapper : ClientAssembly.defaultJsonMapper(), b.clientInfo,
				b.requestTimeout, b.handshakeTimeout, b.maxMessageBytes, fixedEra(b.protocol), b.recoveryPolicy,
				(b.replayGate != null) ? b.replayGate : new DefaultReplayGate(b.recoveryPolicy), b.taskAugmentation,
				credentialsRefresh(b, credentials),
				b.eventListeners, b.notificationListener::onNotification, inputAnswers(b),
				(b.inputHandlerTimeout != null) ? b.inputHandlerTimeout : b.requestTimeout, b.serverLogLevel,
				b.catalogueTtl, b.listenForChanges, b.keepaliveInterval, b.observationRegistry, b.clock);
	}

	/** The era configured, absent to detect it. */
	private static @Nullable ProtocolEra fixedEra(ProtocolMode protocol) {
		return switch (protocol) {
			case LEGACY -> ProtocolEra.LEGACY;
			case MODERN -> ProtocolEra.MODERN;
			case AUTO -> null;
		};
	}

	/**
	 * Streamable HTTP to the URL, through the application's {@code RestClient} or straight
	 * on a JDK client; or a stdio server process started from the command.
	 */
	private static ClientSettings.Wire wire(BuilderState b, @Nullable McpCredentials credentials) {
		StdioCommand c = b.command;
		if (c != null) {
			return new ClientSettings.Stdio(new LaunchSpec(c.command(), c.args(), c.env(), c.workingDirectory(),
					c.inheritEnv() ? null : StdioCommand.MINIMAL_ENVIRONMENT), b.restartPolicy);
		}
		McpEndpoints endpoints = b.endpoints;
		if (endpoints != null) {
			return new ClientSettings.Replicas(b.name, new UsableEndpoints(b.name, endpoints),
					headers(b, credentials), httpClient(b));
		}
		return new ClientSettings.Http(Objects.requireNonNull(b.url, "url"), headers(b, credentials), httpClient(b));
	}

	private static ClientSettings.HttpClientChoice httpClient(BuilderState b) {
		if (b.restClientBuilder != null) {
			return new RestClientOf(b.restClientBuilder);
		}
		if (b.restClientBuilderOnFirstUse != null) {
			return new RestClientOnFirstUse(b.restClientBuilderOnFirstUse);
		}
		// No application HTTP settings: a JDK client shared by every upstream with this
		// connect timeout, built on first use.
		Duration timeout = b.connectTimeout;
		return new SharedJdkClient(new JdkClientSettings(timeout), () -> McpHttpClients.newJdkClient(timeout));
	}

	/** What a JDK client that a builder builds itself is made of: clients of equal settings are shared. */
	private record JdkClientSettings(Duration connectTimeout) {
	}

	/** The headers every message carries: the fixed ones, the computed ones, the credentials. */
	private static Consumer<HttpHeaders> headers(BuilderState b, @Nullable McpCredentials creds) {
		Map<String, String> fixedHeaders = Map.copyOf(b.headers);
		Consumer<HttpHeaders> provider = b.headersProvider;
		return (h) -> {
			fixedHeaders.forEach(h::set);
			provider.accept(h);
			if (creds != null) {
				creds.apply(h);
			}
		};
	}

	/**
	 * The credentials of an HTTP upstream seen from the recovery layer: one URL, or the
	 * instances of a replicated upstream, whose refusals each name the instance they came
	 * from. A stdio upstream refuses no credentials.
	 */
	private static @Nullable CredentialsRefresh credentialsRefresh(BuilderState b,
			@Nullable McpCredentials credentials) {
		if (credentials == null) {
			return null;
		}
		URI url = b.url;
		if (url != null) {
			return credentialsRefresh(credentials, url);
		}
		McpEndpoints endpoints = b.endpoints;
		if (endpoints == null) {
			return null;
		}
		return (refusal) -> {
			if (refusal instanceof McpAuthenticationException auth && auth.challenge() != null) {
				return credentials.refresh(auth.challenge());
			}
			// a refusal without a challenge: taken as the first live instance's
			List<URI> live = endpoints.live();
			return !live.isEmpty() && credentials.refresh(McpAuthChallenge.of(refusal.status(), live.get(0)));
		};
	}

	/** The application's credentials seen from the recovery layer. */
	private static CredentialsRefresh credentialsRefresh(McpCredentials creds, URI resource) {
		// the seam of refused credentials: the refusal's parsed challenge (status, scope,
		// resource metadata); credentials without a notion of it refresh on 401 only
		return (refusal) -> creds.refresh(
				(refusal instanceof McpAuthenticationException auth && auth.challenge() != null) ? auth.challenge()
						: McpAuthChallenge.of(refusal.status(), resource));
	}

	/** The application's input handler seen from inside the client, absent when there is none. */
	private static @Nullable InputAnswers inputAnswers(BuilderState b) {
		McpInputHandler handler = b.inputHandler;
		if (handler == null) {
			return null;
		}
		String upstream = b.name;
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

}
