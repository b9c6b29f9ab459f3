package dev.mcpx.autoconfigure;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.ssl.SslBundle;

import dev.mcpx.autoconfigure.McpxProperties.SpringAi.Expose;
import dev.mcpx.client.recovery.TaskAugmentation;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;

/**
 * One upstream's settings, resolved once (by {@link McpxUpstreams}): each is the upstream's
 * own value under {@code mcpx.clients.<name>}, else {@code mcpx.defaults}, else the client's
 * built-in default, validated, so that whatever reads them (the {@link McpClientConfigurer},
 * the Spring AI bridge, a customizer) reads the same values and none resolves them again. A
 * setting that applies to one transport only lives on that transport's {@link Transport}.
 * <p>
 * A value the client builder checks itself (the URL, the server log level) is refused by the
 * builder; {@link #property(String)} names the property it came from, so that the refusal
 * names what the user set.
 */
public final class McpUpstreamSettings {

	private final String name;

	private final @Nullable Transport transport;

	private final ProtocolMode protocol;

	private final Duration requestTimeout;

	private final Duration handshakeTimeout;

	private final int maxMessageBytes;

	private final Duration catalogueTtl;

	private final boolean listenForChanges;

	private final @Nullable Duration keepaliveInterval;

	private final @Nullable String serverLogLevel;

	private final RecoveryPolicy recoveryPolicy;

	private final SpringAi springAi;

	private final TaskAugmentation taskAugmentation;

	private final Duration listingBound;

	private final Duration connectTimeout;

	private final Map<String, String> origins;

	McpUpstreamSettings(UpstreamSettingsBuilder builder) {
		this.name = builder.name;
		this.transport = builder.transport;
		this.protocol = builder.protocol;
		this.requestTimeout = builder.requestTimeout;
		this.handshakeTimeout = builder.handshakeTimeout;
		this.maxMessageBytes = builder.maxMessageBytes;
		this.catalogueTtl = builder.catalogueTtl;
		this.listenForChanges = builder.listenForChanges;
		this.keepaliveInterval = builder.keepaliveInterval;
		this.serverLogLevel = builder.serverLogLevel;
		this.recoveryPolicy = builder.recoveryPolicy;
		this.springAi = builder.springAi;
		this.taskAugmentation = builder.taskAugmentation;
		this.listingBound = listingBound(this.transport, builder.connectTimeout, this.handshakeTimeout);
		this.connectTimeout = (this.transport instanceof Http http) ? http.connectTimeout()
				: (this.transport instanceof Discovered discovered) ? discovered.connectTimeout() : builder.connectTimeout;
		this.origins = Map.copyOf(builder.origins);
	}

	/** A cold listing connects (over HTTP), shakes hands and lists. */
	private static Duration listingBound(@Nullable Transport transport, Duration undeclaredConnectTimeout,
			Duration handshakeTimeout) {
		if (transport instanceof Stdio) {
			return handshakeTimeout;
		}
		Duration connect = (transport instanceof Http http) ? http.connectTimeout()
				: (transport instanceof Discovered discovered) ? discovered.connectTimeout() : undeclaredConnectTimeout;
		return connect.plus(handshakeTimeout);
	}

	/** The connect timeout: the HTTP transport's, else what {@code mcpx.defaults} gives. */
	Duration connectTimeout() {
		return this.connectTimeout;
	}

	static UpstreamSettingsBuilder builder(String name) {
		return new UpstreamSettingsBuilder(name);
	}

	/**
	 * The upstream's name, the key under {@code mcpx.clients}.
	 * @return the name
	 */
	public String name() {
		return this.name;
	}

	/**
	 * How the client reaches the upstream.
	 * @return an {@link Http} or {@link Stdio} transport, or {@code null} for an upstream
	 * not declared under {@code mcpx.clients} (a client the application built itself), of
	 * which only what {@code mcpx.defaults} gives every upstream is known
	 */
	public @Nullable Transport transport() {
		return this.transport;
	}

	/**
	 * The protocol era the client speaks.
	 * @return the mode
	 */
	public ProtocolMode protocol() {
		return this.protocol;
	}

	/**
	 * The longest one request may take.
	 * @return a positive duration
	 */
	public Duration requestTimeout() {
		return this.requestTimeout;
	}

	/**
	 * The longest one handshake may take.
	 * @return a positive duration
	 */
	public Duration handshakeTimeout() {
		return this.handshakeTimeout;
	}

	/**
	 * The largest message accepted from the upstream.
	 * @return a positive number of bytes
	 */
	public int maxMessageBytes() {
		return this.maxMessageBytes;
	}

	/**
	 * How long a listing stays fresh when the upstream gives no {@code ttlMs}.
	 * @return zero or a positive duration
	 */
	public Duration catalogueTtl() {
		return this.catalogueTtl;
	}

	/**
	 * Whether the client keeps a notification stream open to learn of list changes.
	 * @return whether it listens
	 */
	public boolean listenForChanges() {
		return this.listenForChanges;
	}

	/**
	 * The interval of the keepalive ping.
	 * @return a positive duration, or {@code null} for no keepalive
	 */
	public @Nullable Duration keepaliveInterval() {
		return this.keepaliveInterval;
	}

	/**
	 * The lowest level of log messages to ask the server for, as written; the client
	 * builder checks it.
	 * @return the level, or {@code null} to ask for none
	 */
	public @Nullable String serverLogLevel() {
		return this.serverLogLevel;
	}

	/**
	 * How the client recovers.
	 * @return the policy
	 */
	public RecoveryPolicy recoveryPolicy() {
		return this.recoveryPolicy;
	}

	/**
	 * How the upstream's tools are offered to a Spring AI model.
	 * @return the settings
	 */
	public SpringAi springAi() {
		return this.springAi;
	}

	/**
	 * When a call of a tool whose task support is optional asks for a task.
	 * @return the choice
	 */
	public TaskAugmentation taskAugmentation() {
		return this.taskAugmentation;
	}

	/**
	 * How long a caller waits for a listing of an upstream not yet contacted: it connects,
	 * shakes hands and lists, so the connect timeout plus the handshake timeout (a stdio
	 * upstream connects to nothing).
	 * @return a positive duration
	 */
	public Duration listingBound() {
		return this.listingBound;
	}

	/**
	 * The full name of the property a setting's value came from.
	 * @param key the setting's key under an upstream, for example {@code server-log-level}
	 * or {@code restart.max-backoff}
	 * @return {@code mcpx.defaults.<key>} when the value came from there, else
	 * {@code mcpx.clients.<name>.<key>}
	 */
	public String property(String key) {
		return this.origins.getOrDefault(key, prefix(this.name) + key);
	}

	/**
	 * Equal settings make an equal client: every setting and where it came from (so that a
	 * rebinding can tell a changed upstream from one left as it was).
	 */
	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof McpUpstreamSettings that && this.name.equals(that.name)
				&& Objects.equals(this.transport, that.transport) && this.protocol == that.protocol
				&& this.requestTimeout.equals(that.requestTimeout) && this.handshakeTimeout.equals(that.handshakeTimeout)
				&& this.maxMessageBytes == that.maxMessageBytes && this.catalogueTtl.equals(that.catalogueTtl)
				&& this.listenForChanges == that.listenForChanges
				&& Objects.equals(this.keepaliveInterval, that.keepaliveInterval)
				&& Objects.equals(this.serverLogLevel, that.serverLogLevel)
				&& this.recoveryPolicy.equals(that.recoveryPolicy) && this.springAi.equals(that.springAi)
				&& this.taskAugmentation == that.taskAugmentation && this.listingBound.equals(that.listingBound) && this.origins.equals(that.origins);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.name, this.transport, this.protocol, this.requestTimeout, this.handshakeTimeout,
				this.maxMessageBytes, this.catalogueTtl, this.listenForChanges, this.keepaliveInterval,
				this.serverLogLevel, this.recoveryPolicy, this.springAi, this.taskAugmentation, this.listingBound,
				this.origins);
	}

	/** Header values may be secrets: only their names are shown. */
	@Override
	public String toString() {
		return "McpUpstreamSettings[name=" + this.name + ", transport=" + this.transport + ", protocol="
				+ this.protocol + ", requestTimeout=" + this.requestTimeout + ", handshakeTimeout="
				+ this.handshakeTimeout + ", maxMessageBytes=" + this.maxMessageBytes + ", catalogueTtl="
				+ this.catalogueTtl + ", listenForChanges=" + this.listenForChanges + ", keepaliveInterval="
				+ this.keepaliveInterval + ", serverLogLevel=" + this.serverLogLevel + ", recoveryPolicy="
				+ this.recoveryPolicy + ", springAi=" + this.springAi + ", taskAugmentation=" + this.taskAugmentation
				+ "]";
	}

	static String prefix(String name) {
		return "mcpx.clients." + name + ".";
	}

	/**
	 * How the client reaches an upstream, with the settings that apply to that transport
	 * only.
	 */
	public sealed interface Transport permits Http, Discovered, Stdio {

	}

	/**
	 * Streamable HTTP to {@code url} (2025-11-25 basic/transports §Streamable HTTP).
	 *
	 * @param url the MCP endpoint, as configured; the client builder checks it
	 * @param headers sent with every request: {@code mcpx.defaults.headers} with the
	 * upstream's own added, replacing a default of the same name
	 * @param connectTimeout the longest establishing a connection may take
	 * @param sslBundle what secures https, or {@code null} for the default trust
	 */
	public record Http(URI url, Map<String, String> headers, Duration connectTimeout,
			@Nullable SslBundle sslBundle) implements Transport {

		public Http {
			Objects.requireNonNull(url, "url");
			headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
		}

		/** Header values may be secrets: only their names are shown. */
		@Override
		public String toString() {
			return "Http[url=" + this.url + ", headers=" + this.headers.keySet() + ", connectTimeout="
					+ this.connectTimeout + ", sslBundle=" + ((this.sslBundle != null) ? "set" : "none") + "]";
		}

	}

	/**
	 * Streamable HTTP to the live instances of a service in the registry
	 * ({@code mcpx.discovery}; docs/architecture.md, "Replicated upstreams").
	 *
	 * @param serviceId the service id
	 * @param headers sent with every request: {@code mcpx.defaults.headers}, then
	 * {@code mcpx.discovery.defaults.headers}, then the service's own, each replacing a header
	 * of the same name
	 * @param connectTimeout the longest establishing a connection may take
	 * @param sslBundle what secures https, or {@code null} for the default trust
	 */
	public record Discovered(String serviceId, Map<String, String> headers, Duration connectTimeout,
			@Nullable SslBundle sslBundle) implements Transport {

		public Discovered {
			headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
		}

		/** Header values may be secrets: only their names are shown. */
		@Override
		public String toString() {
			return "Discovered[serviceId=" + this.serviceId + ", headers=" + this.headers.keySet()
					+ ", connectTimeout=" + this.connectTimeout + ", sslBundle="
					+ ((this.sslBundle != null) ? "set" : "none") + "]";
		}

	}

	/**
	 * A server process the client starts (2025-11-25 basic/transports §stdio).
	 *
	 * @param command the program, its arguments and environment
	 * @param restartPolicy when the process is started again after it exited unexpectedly
	 */
	public record Stdio(StdioCommand command, ProcessRestartPolicy restartPolicy) implements Transport {

	}

	/**
	 * Which of an upstream's tools a Spring AI model sees, and under which names.
	 *
	 * @param toolPrefix prepended to every tool name
	 * @param expose which tools, by their annotations (believed only when the
	 * {@link RecoveryPolicy#trustAnnotations() recovery policy trusts them})
	 * @param include names or globs of the tools offered; empty means every tool
	 * @param exclude names or globs of the tools never offered
	 */
	public record SpringAi(String toolPrefix, Expose expose, List<String> include, List<String> exclude) {

		public SpringAi {
			include = List.copyOf(include);
			exclude = List.copyOf(exclude);
		}

	}

}
