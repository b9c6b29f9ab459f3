package dev.mcpx.client.internal.assembly;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.internal.recovery.CredentialsRefresh;
import dev.mcpx.client.internal.session.InputAnswers;
import dev.mcpx.client.internal.session.ServerMessageListener;
import dev.mcpx.client.internal.transport.http.Instances;
import dev.mcpx.client.internal.transport.stdio.LaunchSpec;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.ReplayGate;
import dev.mcpx.client.recovery.TaskAugmentation;
import tools.jackson.databind.json.JsonMapper;

/**
 * What one client is assembled from, settled: validated, defaults applied, and the
 * application's types adapted to the internal seams they reach. The builder makes it;
 * {@link ClientAssembly} reads it. Adding a setting adds a component here, its setter to the
 * builder, and the one line of the assembly that uses it.
 *
 * @param name the upstream name
 * @param wire Streamable HTTP to a URL, or a stdio server process
 * @param jsonMapper the mapper of protocol messages and tool arguments
 * @param clientInfo how the client introduces itself
 * @param requestTimeout the default bound of one request
 * @param handshakeTimeout the bound of one handshake or discovery, run for every waiting caller
 * @param maxMessageBytes the largest message accepted from the server
 * @param era the era fixed by configuration, absent to detect it
 * @param recoveryPolicy how the client recovers
 * @param replayGate decides whether a request may be sent a second time
 * @param taskAugmentation when a call of a tool with optional task support asks for a task
 * @param credentialsRefresh refreshes refused credentials, absent without credentials
 * @param eventListeners the application's listeners of recovery events, in order
 * @param notificationListener the application's listener of server notifications
 * @param inputAnswers the application's input handler, absent when there is none
 * @param inputHandlerTimeout how long the input handler may take to answer a server's request
 * @param serverLogLevel the least severe server log message asked for, absent to ask nothing
 * @param catalogueTtl how long a listing without {@code ttlMs} stays fresh
 * @param listenForChanges whether a notification stream is held open to learn of changes
 * @param keepaliveInterval how often an open session is pinged, absent for never
 * @param observationRegistry where requests are observed
 * @param clock the clock of status timestamps and listing freshness
 */
public record ClientSettings(String name, Wire wire, JsonMapper jsonMapper, Implementation clientInfo,
		Duration requestTimeout, Duration handshakeTimeout, int maxMessageBytes, @Nullable ProtocolEra era,
		RecoveryPolicy recoveryPolicy, ReplayGate replayGate, TaskAugmentation taskAugmentation,
		@Nullable CredentialsRefresh credentialsRefresh,
		List<McpEventListener> eventListeners, ServerMessageListener notificationListener,
		@Nullable InputAnswers inputAnswers, Duration inputHandlerTimeout, @Nullable String serverLogLevel,
		Duration catalogueTtl, boolean listenForChanges, @Nullable Duration keepaliveInterval,
		ObservationRegistry observationRegistry, Clock clock) {

	public ClientSettings {
		eventListeners = List.copyOf(eventListeners);
	}

	/** Where the client talks to its upstream: one of two wires. */
	public sealed interface Wire permits Http, Replicas, Stdio {

		/**
		 * The upstream as status and health may show it: never credentials, a query, or a
		 * process's arguments, which may hold secrets.
		 * @return what may be shown
		 */
		String shown();

	}

	/**
	 * Streamable HTTP (2025-11-25 basic/transports §Streamable HTTP).
	 * @param url the MCP endpoint
	 * @param headers adds the headers every message carries: the fixed ones, the computed
	 * ones, the credentials
	 * @param client the HTTP client the messages go through
	 */
	public record Http(URI url, Consumer<HttpHeaders> headers, HttpClientChoice client) implements Wire {

		@Override
		public String shown() {
			StringBuilder shown = new StringBuilder().append(this.url.getScheme()).append("://").append(this.url.getHost());
			if (this.url.getPort() >= 0) {
				shown.append(':').append(this.url.getPort());
			}
			if (this.url.getRawPath() != null) {
				shown.append(this.url.getRawPath());
			}
			return shown.toString();
		}

	}

	/**
	 * Streamable HTTP to one upstream served by several interchangeable instances: a legacy
	 * session on one of them, modern requests spread over them (docs/architecture.md,
	 * "Replicated upstreams").
	 * @param upstream the upstream name, which is what may be shown of it
	 * @param instances the live endpoints
	 * @param headers adds the headers every message carries
	 * @param client the HTTP client the messages go through, to every instance
	 */
	public record Replicas(String upstream, Instances instances, Consumer<HttpHeaders> headers,
			HttpClientChoice client) implements Wire {

		@Override
		public String shown() {
			return "replicas:" + this.upstream;
		}

	}

	/**
	 * A server process the client starts (2025-11-25 basic/transports §stdio).
	 * @param launch what the process is started with
	 * @param restartPolicy when it is started again after it ended unexpectedly
	 */
	public record Stdio(LaunchSpec launch, ProcessRestartPolicy restartPolicy) implements Wire {

		@Override
		public String shown() {
			return "stdio:" + this.launch.command();
		}

	}

	/** Which HTTP client an HTTP wire goes through: one of three. */
	public sealed interface HttpClientChoice permits RestClientOf, RestClientOnFirstUse, SharedJdkClient {

	}

	/**
	 * The application's {@code RestClient} builder, cloned when the client is assembled.
	 * @param builder the builder
	 */
	public record RestClientOf(RestClient.Builder builder) implements HttpClientChoice {

	}

	/**
	 * The application's {@code RestClient} builder, taken and cloned when the first message
	 * is sent, so nothing of the HTTP client is built before first use.
	 * @param builder supplies the builder, once
	 */
	public record RestClientOnFirstUse(Supplier<RestClient.Builder> builder) implements HttpClientChoice {

	}

	/**
	 * Straight on a JDK client, shared by every client of equal settings and built on first
	 * use (no application HTTP settings to apply).
	 * @param settings what the JDK client is made of, compared by {@code equals}
	 * @param factory builds the client
	 */
	public record SharedJdkClient(Object settings, Supplier<HttpClient> factory) implements HttpClientChoice {

	}

}
