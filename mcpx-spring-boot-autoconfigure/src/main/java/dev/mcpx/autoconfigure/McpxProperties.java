package dev.mcpx.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.recovery.TaskAugmentation;
import dev.mcpx.client.recovery.ToolReplay;

/**
 * Configuration of mcpx: the upstream MCP servers an application talks to.
 * <p>
 * Each setting of an upstream is declared once, in {@link UpstreamSettings}, which both
 * an upstream ({@link Client}) and the defaults for every upstream ({@link Defaults})
 * extend. Every such setting is unset ({@code null}) until configured: an upstream's own
 * value wins, then {@code mcpx.defaults}, then the client's built-in default, which is
 * declared once in the client core ({@code McpClientBuilder.DEFAULT_*},
 * {@code RecoveryPolicy}, {@code ProcessRestartPolicy}) and shown in the configuration
 * metadata through {@code additional-spring-configuration-metadata.json}. That rule is
 * applied once per upstream, by {@link McpxUpstreams}, into its {@link McpUpstreamSettings},
 * which is what everything else reads. Concerns other
 * than an upstream's connection get a nested class of their own ({@link Health}).
 */
@ConfigurationProperties("mcpx")
public class McpxProperties {

	/**
	 * Upstream MCP servers by name; each becomes an McpClient bean with that name.
	 */
	private final Map<String, Client> clients = new LinkedHashMap<>();

	/**
	 * Settings that apply to every upstream unless the upstream sets its own.
	 */
	private final Defaults defaults = new Defaults();

	/**
	 * Health of the upstreams, as shown under /actuator/health/mcpx.
	 */
	private final Health health = new Health();

	/**
	 * Upstreams from the service registry (Spring Cloud's DiscoveryClient): one per MCP service.
	 */
	private final Discovery discovery = new Discovery();

	public Map<String, Client> getClients() {
		return this.clients;
	}

	public Defaults getDefaults() {
		return this.defaults;
	}

	public Health getHealth() {
		return this.health;
	}

	public Discovery getDiscovery() {
		return this.discovery;
	}

	/**
	 * The settings an upstream may set for itself and {@code mcpx.defaults} may set for
	 * every upstream; unset is {@code null}.
	 */
	public abstract static class UpstreamSettings {
		/**
		 * Protocol era to speak: auto detects it, legacy or modern fixes it.
		 */
		private @Nullable ProtocolMode protocol;

		/**
		 * HTTP headers sent with every request, for example Authorization; an upstream's own
		 * headers are added to mcpx.defaults.headers, replacing a default of the same name.
		 * HTTP upstreams only.
		 */
		private final Map<String, String> headers = new LinkedHashMap<>();

		/**
		 * Maximum time one request may take, from sending it to its response.
		 */
		private @Nullable Duration requestTimeout;

		/**
		 * Maximum time to establish a connection. HTTP upstreams only.
		 */
		private @Nullable Duration connectTimeout;

		/**
		 * Maximum time of one handshake (initialize, or the start of a stdio server process),
		 * including one run by a recovery.
		 */
		private @Nullable Duration handshakeTimeout;

		/**
		 * Largest message accepted from the upstream; a longer stdout line stops a stdio server
		 * process.
		 */
		private @Nullable DataSize maxMessageSize;

		/**
		 * Interval of a ping that finds an expired session or a hung server process before a
		 * caller does; unset means no keepalive.
		 */
		private @Nullable Duration keepaliveInterval;

		/**
		 * Name of the SSL bundle (spring.ssl.bundle.*) that secures https to the upstream.
		 * HTTP upstreams only.
		 */
		private @Nullable String sslBundle;

		/**
		 * How long a listing stays fresh when the upstream gives no ttlMs.
		 */
		private @Nullable Duration catalogueTtl;

		/**
		 * Whether to keep a notification stream open to learn of list changes.
		 */
		private @Nullable Boolean listenForChanges;

		/**
		 * Lowest level of log messages to ask the server for (logging/setLevel after every
		 * legacy handshake, the logLevel request metadata in 2026-07-28): debug, info, notice,
		 * warning, error, critical, alert or emergency.
		 */
		private @Nullable String serverLogLevel;

		/**
		 * How the client recovers; unset values fall back to mcpx.defaults.recovery.
		 */
		@NestedConfigurationProperty
		private final Recovery recovery = new Recovery();

		/**
		 * When the server process of a stdio upstream is started again after it exited
		 * unexpectedly; unset values fall back to mcpx.defaults.restart.
		 */
		@NestedConfigurationProperty
		private final Restart restart = new Restart();

		/**
		 * How the upstream's tools are offered to a Spring AI model; unset values fall back to
		 * mcpx.defaults.spring-ai.
		 */
		@NestedConfigurationProperty
		private final SpringAi springAi = new SpringAi();

		/**
		 * When tool calls become tasks (2025-11-25 basic/utilities/tasks); unset values fall
		 * back to mcpx.defaults.tasks.
		 */
		@NestedConfigurationProperty
		private final ToolTasks tasks = new ToolTasks();

		public @Nullable ProtocolMode getProtocol() {
			return this.protocol;
		}

		public void setProtocol(@Nullable ProtocolMode protocol) {
			this.protocol = protocol;
		}

		public Map<String, String> getHeaders() {
			return this.headers;
		}

		public @Nullable Duration getRequestTimeout() {
			return this.requestTimeout;
		}

		public void setRequestTimeout(@Nullable Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
		}

		public @Nullable Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(@Nullable Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public @Nullable Duration getHandshakeTimeout() {
			return this.handshakeTimeout;
		}

		public void setHandshakeTimeout(@Nullable Duration handshakeTimeout) {
			this.handshakeTimeout = handshakeTimeout;
		}

		public @Nullable DataSize getMaxMessageSize() {
			return this.maxMessageSize;
		}

		public void setMaxMessageSize(@Nullable DataSize maxMessageSize) {
			this.maxMessageSize = maxMessageSize;
		}

		public @Nullable Duration getKeepaliveInterval() {
			return this.keepaliveInterval;
		}

		public void setKeepaliveInterval(@Nullable Duration keepaliveInterval) {
			this.keepaliveInterval = keepaliveInterval;
		}

		public @Nullable String getSslBundle() {
			return this.sslBundle;
		}

		public void setSslBundle(@Nullable String sslBundle) {
			this.sslBundle = sslBundle;
		}

		public @Nullable Duration getCatalogueTtl() {
			return this.catalogueTtl;
		}

		public void setCatalogueTtl(@Nullable Duration catalogueTtl) {
			this.catalogueTtl = catalogueTtl;
		}

		public @Nullable Boolean getListenForChanges() {
			return this.listenForChanges;
		}

		public void setListenForChanges(@Nullable Boolean listenForChanges) {
			this.listenForChanges = listenForChanges;
		}

		public @Nullable String getServerLogLevel() {
			return this.serverLogLevel;
		}

		public void setServerLogLevel(@Nullable String serverLogLevel) {
			this.serverLogLevel = serverLogLevel;
		}

		public Recovery getRecovery() {
			return this.recovery;
		}

		public Restart getRestart() {
			return this.restart;
		}

		public SpringAi getSpringAi() {
			return this.springAi;
		}

		public ToolTasks getTasks() {
			return this.tasks;
		}
	}

	/**
	 * One upstream: where it is (an HTTP {@code url}, or a stdio {@code command} the client
	 * starts), and its own settings, which win over {@code mcpx.defaults}.
	 */
	public static class Client extends UpstreamSettings {
		/**
		 * URL of the upstream's MCP endpoint, http or https; exactly one of url and command.
		 */
		private @Nullable String url;

		/**
		 * Program that starts a stdio MCP server, found on the PATH unless it is a path; exactly
		 * one of url and command.
		 */
		private @Nullable String command;

		/**
		 * Arguments of the command, each passed as one argument, never through a shell.
		 */
		private final List<String> args = new ArrayList<>();

		/**
		 * Variables added to the stdio server's environment; their values are never logged.
		 */
		private final Map<String, String> env = new LinkedHashMap<>();

		/**
		 * Directory the stdio server runs in; unset means the application's own.
		 */
		private @Nullable Path workingDirectory;

		/**
		 * Whether the stdio server starts from the application's environment (plus env); false
		 * gives it only PATH, HOME, TMPDIR and LANG (plus env).
		 */
		private @Nullable Boolean inheritEnv;

		public @Nullable String getUrl() {
			return this.url;
		}

		public void setUrl(@Nullable String url) {
			this.url = url;
		}

		public @Nullable String getCommand() {
			return this.command;
		}

		public void setCommand(@Nullable String command) {
			this.command = command;
		}

		public List<String> getArgs() {
			return this.args;
		}

		public Map<String, String> getEnv() {
			return this.env;
		}

		public @Nullable Path getWorkingDirectory() {
			return this.workingDirectory;
		}

		public void setWorkingDirectory(@Nullable Path workingDirectory) {
			this.workingDirectory = workingDirectory;
		}

		public @Nullable Boolean getInheritEnv() {
			return this.inheritEnv;
		}

		public void setInheritEnv(@Nullable Boolean inheritEnv) {
			this.inheritEnv = inheritEnv;
		}
	}

	/**
	 * The settings every upstream gets unless it sets its own.
	 */
	public static class Defaults extends UpstreamSettings {

	}

	/**
	 * Upstreams from the service registry: every MCP service becomes one upstream, named by
	 * its service id, over its live instances (docs/architecture.md, "Replicated upstreams").
	 */
	public static class Discovery {

		/**
		 * Whether services of the registry (Spring Cloud's DiscoveryClient) become MCP upstreams.
		 */
		private boolean enabled = false;

		/**
		 * Ids of the services that are MCP upstreams, whatever their instances' metadata.
		 */
		private List<String> serviceIds = new ArrayList<>();

		/**
		 * Whether every service with an instance whose metadata has mcp.path or mcp.protocol is
		 * an MCP upstream too.
		 */
		private boolean byMetadata = true;

		/**
		 * Settings of every discovered upstream unless its service sets its own; over mcpx.defaults.
		 */
		private final Defaults defaults = new Defaults();

		/**
		 * Settings of one discovered upstream, by service id; a service named here is an MCP upstream.
		 */
		private final Map<String, Defaults> services = new LinkedHashMap<>();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public List<String> getServiceIds() {
			return this.serviceIds;
		}

		public void setServiceIds(List<String> serviceIds) {
			this.serviceIds = serviceIds;
		}

		public boolean isByMetadata() {
			return this.byMetadata;
		}

		public void setByMetadata(boolean byMetadata) {
			this.byMetadata = byMetadata;
		}

		public Defaults getDefaults() {
			return this.defaults;
		}

		public Map<String, Defaults> getServices() {
			return this.services;
		}

	}

	/**
	 * Health of the upstreams; unset values take the defaults of {@code McpxHealthSettings}.
	 */
	public static class Health {
		/**
		 * Whether the health check pings an upstream whose last exchange is older than the
		 * probe interval, rather than only reporting how the application's requests went.
		 */
		private @Nullable Boolean probe;

		/**
		 * How old the last exchange with an upstream may be before a health check pings it,
		 * when the probe is enabled.
		 */
		private @Nullable Duration probeInterval;

		/**
		 * Longest a health check waits for an upstream's ping; an upstream that does not
		 * answer in time is reported down.
		 */
		private @Nullable Duration timeout;

		/**
		 * Consecutive failed requests after which an upstream is reported down, whatever
		 * failed.
		 */
		private @Nullable Integer downAfterFailures;

		public @Nullable Boolean getProbe() {
			return this.probe;
		}

		public void setProbe(@Nullable Boolean probe) {
			this.probe = probe;
		}

		public @Nullable Duration getProbeInterval() {
			return this.probeInterval;
		}

		public void setProbeInterval(@Nullable Duration probeInterval) {
			this.probeInterval = probeInterval;
		}

		public @Nullable Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(@Nullable Duration timeout) {
			this.timeout = timeout;
		}

		public @Nullable Integer getDownAfterFailures() {
			return this.downAfterFailures;
		}

		public void setDownAfterFailures(@Nullable Integer downAfterFailures) {
			this.downAfterFailures = downAfterFailures;
		}
	}

	/**
	 * How a client recovers; unset values fall back to mcpx.defaults.recovery, then to the
	 * defaults of {@code RecoveryPolicy}.
	 */
	public static class Recovery {
		/**
		 * Session expiry handling.
		 */
		private final SessionExpiry sessionExpiry = new SessionExpiry();

		/**
		 * Broken response stream handling.
		 */
		private final BrokenStream brokenStream = new BrokenStream();

		/**
		 * Whether the upstream's tool annotations (readOnlyHint, idempotentHint) may justify
		 * re-sending a tool call whose outcome is unknown.
		 */
		private @Nullable Boolean trustAnnotations;

		/**
		 * Per-tool override of the replay decision: always, never or annotations.
		 */
		private final Map<String, ToolReplay> tools = new LinkedHashMap<>();

		public SessionExpiry getSessionExpiry() {
			return this.sessionExpiry;
		}

		public BrokenStream getBrokenStream() {
			return this.brokenStream;
		}

		public @Nullable Boolean getTrustAnnotations() {
			return this.trustAnnotations;
		}

		public void setTrustAnnotations(@Nullable Boolean trustAnnotations) {
			this.trustAnnotations = trustAnnotations;
		}

		public Map<String, ToolReplay> getTools() {
			return this.tools;
		}

		/**
		 * Session expiry handling.
		 */
		public static class SessionExpiry {
			/**
			 * Whether an expired session is re-initialized and the failed request retried
			 * once.
			 */
			private @Nullable Boolean enabled;

			/**
			 * Whether a 400 answer whose JSON-RPC error names the session counts as expiry,
			 * as some widely deployed servers answer a forgotten session so.
			 */
			private @Nullable Boolean onBadRequest;

			public @Nullable Boolean getEnabled() {
				return this.enabled;
			}

			public void setEnabled(@Nullable Boolean enabled) {
				this.enabled = enabled;
			}

			public @Nullable Boolean getOnBadRequest() {
				return this.onBadRequest;
			}

			public void setOnBadRequest(@Nullable Boolean onBadRequest) {
				this.onBadRequest = onBadRequest;
			}
		}

		/**
		 * Broken response stream handling.
		 */
		public static class BrokenStream {
			/**
			 * Whether a request whose response stream broke, or whose stdio server process
			 * exited, may be resumed or re-issued once, as the replay gate allows.
			 */
			private @Nullable Boolean enabled;

			/**
			 * How often a broken legacy event stream is resumed with Last-Event-ID before
			 * its response counts as lost.
			 */
			private @Nullable Integer resumptionAttempts;

			public @Nullable Boolean getEnabled() {
				return this.enabled;
			}

			public void setEnabled(@Nullable Boolean enabled) {
				this.enabled = enabled;
			}

			public @Nullable Integer getResumptionAttempts() {
				return this.resumptionAttempts;
			}

			public void setResumptionAttempts(@Nullable Integer resumptionAttempts) {
				this.resumptionAttempts = resumptionAttempts;
			}
		}

	}

	/**
	 * When a stdio server process is started again; unset values fall back to
	 * mcpx.defaults.restart, then to the defaults of {@code ProcessRestartPolicy}.
	 */
	public static class Restart {
		/**
		 * Wait before the first restart after a crash; doubles per crash in a row, up to
		 * max-backoff.
		 */
		private @Nullable Duration initialBackoff;

		/**
		 * Longest wait before a restart.
		 */
		private @Nullable Duration maxBackoff;

		/**
		 * Restarts allowed within the window; past them the upstream is down until the
		 * cool-down ends.
		 */
		private @Nullable Integer maxRestarts;

		/**
		 * Period over which restarts are counted.
		 */
		private @Nullable Duration window;

		/**
		 * How long an upstream whose restarts are spent stays down.
		 */
		private @Nullable Duration coolDown;

		public @Nullable Duration getInitialBackoff() {
			return this.initialBackoff;
		}

		public void setInitialBackoff(@Nullable Duration initialBackoff) {
			this.initialBackoff = initialBackoff;
		}

		public @Nullable Duration getMaxBackoff() {
			return this.maxBackoff;
		}

		public void setMaxBackoff(@Nullable Duration maxBackoff) {
			this.maxBackoff = maxBackoff;
		}

		public @Nullable Integer getMaxRestarts() {
			return this.maxRestarts;
		}

		public void setMaxRestarts(@Nullable Integer maxRestarts) {
			this.maxRestarts = maxRestarts;
		}

		public @Nullable Duration getWindow() {
			return this.window;
		}

		public void setWindow(@Nullable Duration window) {
			this.window = window;
		}

		public @Nullable Duration getCoolDown() {
			return this.coolDown;
		}

		public void setCoolDown(@Nullable Duration coolDown) {
			this.coolDown = coolDown;
		}
	}

	/**
	 * How an upstream's tools become Spring AI tool callbacks, when Spring AI is on the
	 * classpath; unset values fall back to mcpx.defaults.spring-ai.
	 */
	public static class SpringAi {
		/**
		 * Prefix of the name of every tool of the upstream, as the model sees it, for example
		 * weather_.
		 */
		private @Nullable String toolPrefix;

		/**
		 * Which tools the model sees, by their annotations: all, non-destructive or read-only.
		 */
		private @Nullable Expose expose;

		/**
		 * Names or globs (* and ?) of the tools the model sees; empty means every tool.
		 */
		private final List<String> include = new ArrayList<>();

		/**
		 * Names or globs (* and ?) of tools the model never sees, added to
		 * mcpx.defaults.spring-ai.exclude.
		 */
		private final List<String> exclude = new ArrayList<>();

		public @Nullable String getToolPrefix() {
			return this.toolPrefix;
		}

		public void setToolPrefix(@Nullable String toolPrefix) {
			this.toolPrefix = toolPrefix;
		}

		public @Nullable Expose getExpose() {
			return this.expose;
		}

		public void setExpose(@Nullable Expose expose) {
			this.expose = expose;
		}

		public List<String> getInclude() {
			return this.include;
		}

		public List<String> getExclude() {
			return this.exclude;
		}

		/**
		 * Which tools of an upstream a Spring AI model sees, by the annotations the server
		 * declared (trusted only when recovery.trust-annotations is true).
		 */
		public enum Expose {

			/** Every tool. */
			ALL,

			/**
			 * Tools declared read-only or explicitly not destructive; a tool without
			 * annotations counts as destructive, as the spec's default says.
			 */
			NON_DESTRUCTIVE,

			/** Only tools declared read-only. */
			READ_ONLY

		}
	}

	/**
	 * When an upstream's tool calls become tasks; unset values fall back to
	 * mcpx.defaults.tasks.
	 */
	public static class ToolTasks {
		/**
		 * When a call of a tool whose task support is optional asks for a task: unsafe (when
		 * the call would not be sent again after a lost response), always or never; a tool
		 * that requires a task always gets one.
		 */
		private @Nullable TaskAugmentation augment;

		public @Nullable TaskAugmentation getAugment() {
			return this.augment;
		}

		public void setAugment(@Nullable TaskAugmentation augment) {
			this.augment = augment;
		}

		/**
		 * Whether 2026-07-28 requests declare the tasks extension (io.modelcontextprotocol/tasks),
		 * so that the server may answer a tool call with a task, which the client then follows to
		 * its result; false: no task, and a tool the server runs only as a task is refused by it.
		 * Default true.
		 */
		private @Nullable Boolean enabled;

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}
	}

}
