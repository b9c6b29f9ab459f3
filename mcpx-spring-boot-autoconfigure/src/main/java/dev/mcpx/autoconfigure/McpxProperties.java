package dev.mcpx.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

import dev.mcpx.client.recovery.ToolReplay;

/**
 * Configuration of mcpx: the upstream MCP servers an application talks to.
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

	public Map<String, Client> getClients() {
		return this.clients;
	}

	public Defaults getDefaults() {
		return this.defaults;
	}

	public Health getHealth() {
		return this.health;
	}

	/**
	 * The protocol era to speak with an upstream.
	 */
	public enum Protocol {

		/**
		 * Detect the era on first contact.
		 */
		AUTO,

		/**
		 * Speak the legacy era (2025-03-26 to 2025-11-25): initialize handshake and sessions.
		 */
		LEGACY,

		/**
		 * Speak the modern era (2026-07-28): stateless requests.
		 */
		MODERN

	}

	/**
	 * One upstream MCP server. Unset values fall back to mcpx.defaults.
	 */
	public static class Client {

		/**
		 * URL of the upstream's MCP endpoint, http or https.
		 */
		private String url;

		/**
		 * Protocol era to speak; falls back to mcpx.defaults.protocol.
		 */
		private Protocol protocol;

		/**
		 * HTTP headers sent with every request to this upstream, for example Authorization;
		 * added to mcpx.defaults.headers, replacing a default of the same name.
		 */
		private final Map<String, String> headers = new LinkedHashMap<>();

		/**
		 * Maximum time one request may take, from sending it to its response; falls back to
		 * mcpx.defaults.request-timeout.
		 */
		private Duration requestTimeout;

		/**
		 * Maximum time to establish a connection; falls back to
		 * mcpx.defaults.connect-timeout.
		 */
		private Duration connectTimeout;

		/**
		 * Maximum time of one initialize handshake, including one run by a recovery; falls
		 * back to mcpx.defaults.handshake-timeout.
		 */
		private Duration handshakeTimeout;

		/**
		 * Largest message accepted from the upstream; falls back to
		 * mcpx.defaults.max-message-size.
		 */
		private DataSize maxMessageSize;

		/**
		 * Interval of a ping that finds an expired session before a caller does; falls back
		 * to mcpx.defaults.keepalive-interval; unset means no keepalive.
		 */
		private Duration keepaliveInterval;

		/**
		 * Name of the SSL bundle (spring.ssl.bundle.*) that secures https to this upstream;
		 * falls back to mcpx.defaults.ssl-bundle.
		 */
		private String sslBundle;

		public String getSslBundle() {
			return this.sslBundle;
		}

		public void setSslBundle(String sslBundle) {
			this.sslBundle = sslBundle;
		}

		/**
		 * How long a listing stays fresh when the upstream gives no ttlMs; falls back to
		 * mcpx.defaults.catalogue-ttl.
		 */
		private Duration catalogueTtl;

		/**
		 * Whether to keep a notification stream open to learn of list changes; falls back
		 * to mcpx.defaults.listen-for-changes.
		 */
		private Boolean listenForChanges;

		public Duration getCatalogueTtl() {
			return this.catalogueTtl;
		}

		public void setCatalogueTtl(Duration catalogueTtl) {
			this.catalogueTtl = catalogueTtl;
		}

		public Boolean getListenForChanges() {
			return this.listenForChanges;
		}

		public void setListenForChanges(Boolean listenForChanges) {
			this.listenForChanges = listenForChanges;
		}

		/**
		 * How this upstream's client recovers; unset values fall back to
		 * mcpx.defaults.recovery.
		 */
		@NestedConfigurationProperty
		private final Recovery recovery = new Recovery();

		public Duration getKeepaliveInterval() {
			return this.keepaliveInterval;
		}

		public void setKeepaliveInterval(Duration keepaliveInterval) {
			this.keepaliveInterval = keepaliveInterval;
		}

		public Recovery getRecovery() {
			return this.recovery;
		}

		public String getUrl() {
			return this.url;
		}

		public void setUrl(String url) {
			this.url = url;
		}

		public Protocol getProtocol() {
			return this.protocol;
		}

		public void setProtocol(Protocol protocol) {
			this.protocol = protocol;
		}

		public Map<String, String> getHeaders() {
			return this.headers;
		}

		public Duration getRequestTimeout() {
			return this.requestTimeout;
		}

		public void setRequestTimeout(Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public Duration getHandshakeTimeout() {
			return this.handshakeTimeout;
		}

		public void setHandshakeTimeout(Duration handshakeTimeout) {
			this.handshakeTimeout = handshakeTimeout;
		}

		public DataSize getMaxMessageSize() {
			return this.maxMessageSize;
		}

		public void setMaxMessageSize(DataSize maxMessageSize) {
			this.maxMessageSize = maxMessageSize;
		}

	}

	/**
	 * Defaults for every upstream.
	 */
	public static class Defaults {

		/**
		 * Protocol era to speak.
		 */
		private Protocol protocol = Protocol.AUTO;

		/**
		 * HTTP headers sent with every request to every upstream.
		 */
		private final Map<String, String> headers = new LinkedHashMap<>();

		/**
		 * Maximum time one request may take, from sending it to its response.
		 */
		private Duration requestTimeout = Duration.ofSeconds(30);

		/**
		 * Maximum time to establish a connection.
		 */
		private Duration connectTimeout = Duration.ofSeconds(5);

		/**
		 * Maximum time of one initialize handshake, including one run by a recovery.
		 */
		private Duration handshakeTimeout = Duration.ofSeconds(10);

		/**
		 * Largest message accepted from an upstream.
		 */
		private DataSize maxMessageSize = DataSize.ofMegabytes(16);

		/**
		 * Interval of a ping that finds an expired session before a caller does; unset
		 * means no keepalive.
		 */
		private Duration keepaliveInterval;

		/**
		 * Name of the SSL bundle (spring.ssl.bundle.*) that secures https to every upstream.
		 */
		private String sslBundle;

		public String getSslBundle() {
			return this.sslBundle;
		}

		public void setSslBundle(String sslBundle) {
			this.sslBundle = sslBundle;
		}

		/**
		 * How long a listing (tools, prompts, resources) stays fresh when the upstream gives
		 * no ttlMs (legacy upstreams); 0 disables caching for them.
		 */
		private Duration catalogueTtl = Duration.ofMinutes(5);

		/**
		 * Whether to keep a notification stream open to learn of list changes, when the
		 * upstream announces them.
		 */
		private boolean listenForChanges = true;

		public Duration getCatalogueTtl() {
			return this.catalogueTtl;
		}

		public void setCatalogueTtl(Duration catalogueTtl) {
			this.catalogueTtl = catalogueTtl;
		}

		public boolean isListenForChanges() {
			return this.listenForChanges;
		}

		public void setListenForChanges(boolean listenForChanges) {
			this.listenForChanges = listenForChanges;
		}

		/**
		 * How clients recover, unless an upstream sets its own.
		 */
		@NestedConfigurationProperty
		private final Recovery recovery = new Recovery();

		public Duration getKeepaliveInterval() {
			return this.keepaliveInterval;
		}

		public void setKeepaliveInterval(Duration keepaliveInterval) {
			this.keepaliveInterval = keepaliveInterval;
		}

		public Recovery getRecovery() {
			return this.recovery;
		}

		public Protocol getProtocol() {
			return this.protocol;
		}

		public void setProtocol(Protocol protocol) {
			this.protocol = protocol;
		}

		public Map<String, String> getHeaders() {
			return this.headers;
		}

		public Duration getRequestTimeout() {
			return this.requestTimeout;
		}

		public void setRequestTimeout(Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
		}

		public Duration getConnectTimeout() {
			return this.connectTimeout;
		}

		public void setConnectTimeout(Duration connectTimeout) {
			this.connectTimeout = connectTimeout;
		}

		public Duration getHandshakeTimeout() {
			return this.handshakeTimeout;
		}

		public void setHandshakeTimeout(Duration handshakeTimeout) {
			this.handshakeTimeout = handshakeTimeout;
		}

		public DataSize getMaxMessageSize() {
			return this.maxMessageSize;
		}

		public void setMaxMessageSize(DataSize maxMessageSize) {
			this.maxMessageSize = maxMessageSize;
		}

	}

	/**
	 * Health of the upstreams: one indicator per upstream under the {@code mcpx} health
	 * contributor.
	 */
	public static class Health {

		/**
		 * Whether the health check pings an upstream whose last exchange is older than the
		 * probe interval, rather than only reporting how the application's requests went.
		 */
		private boolean probe = false;

		/**
		 * How old the last exchange with an upstream may be before a health check pings it,
		 * when the probe is enabled.
		 */
		private Duration probeInterval = Duration.ofSeconds(30);

		/**
		 * Longest a health check waits for an upstream's ping; an upstream that does not
		 * answer in time is reported down.
		 */
		private Duration timeout = Duration.ofSeconds(2);

		/**
		 * Consecutive failed requests after which an upstream is reported down, whatever
		 * failed.
		 */
		private int downAfterFailures = 3;

		public boolean isProbe() {
			return this.probe;
		}

		public void setProbe(boolean probe) {
			this.probe = probe;
		}

		public Duration getProbeInterval() {
			return this.probeInterval;
		}

		public void setProbeInterval(Duration probeInterval) {
			this.probeInterval = probeInterval;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public int getDownAfterFailures() {
			return this.downAfterFailures;
		}

		public void setDownAfterFailures(int downAfterFailures) {
			this.downAfterFailures = downAfterFailures;
		}

	}

	/**
	 * Recovery settings. Unset values fall back to mcpx.defaults.recovery, then to the
	 * built-in defaults named on each property.
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
		 * re-sending a tool call whose outcome is unknown. Default true.
		 */
		private Boolean trustAnnotations;

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

		public Boolean getTrustAnnotations() {
			return this.trustAnnotations;
		}

		public void setTrustAnnotations(Boolean trustAnnotations) {
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
			 * once. Default true.
			 */
			private Boolean enabled;

			/**
			 * Whether a 400 answer whose JSON-RPC error names the session counts as expiry,
			 * as some widely deployed servers answer a forgotten session so. Default true.
			 */
			private Boolean onBadRequest;

			public Boolean getEnabled() {
				return this.enabled;
			}

			public void setEnabled(Boolean enabled) {
				this.enabled = enabled;
			}

			public Boolean getOnBadRequest() {
				return this.onBadRequest;
			}

			public void setOnBadRequest(Boolean onBadRequest) {
				this.onBadRequest = onBadRequest;
			}

		}

		/**
		 * Broken response stream handling.
		 */
		public static class BrokenStream {

			/**
			 * Whether a request whose response stream broke may be resumed or re-issued
			 * once, as the replay gate allows. Default true.
			 */
			private Boolean enabled;

			/**
			 * How often a broken legacy event stream is resumed with Last-Event-ID before
			 * its response counts as lost. Default 3.
			 */
			private Integer resumptionAttempts;

			public Boolean getEnabled() {
				return this.enabled;
			}

			public void setEnabled(Boolean enabled) {
				this.enabled = enabled;
			}

			public Integer getResumptionAttempts() {
				return this.resumptionAttempts;
			}

			public void setResumptionAttempts(Integer resumptionAttempts) {
				this.resumptionAttempts = resumptionAttempts;
			}

		}

	}

}
