package dev.mcpx.client.recovery;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How one client recovers, fixed when it is built: an immutable value, made with
 * {@link #ofDefaults()}, {@link #custom()} or {@link #from(RecoveryPolicy)}.
 *
 * <pre>{@code
 * RecoveryPolicy policy = RecoveryPolicy.custom()
 *     .trustAnnotations(false)
 *     .tool("delete_city", ToolReplay.NEVER)
 *     .build();
 * }</pre>
 *
 * The mechanism that applies it is the client's recovery loop; see
 * {@code docs/architecture.md}, "Recovery rules".
 */
public final class RecoveryPolicy {

	/** Whether an expired legacy session is recovered by default: it is what mcpx is for. */
	public static final boolean DEFAULT_SESSION_EXPIRY = true;

	/**
	 * Whether a 400 naming the session counts as expiry by default: widely deployed servers
	 * answer a forgotten session so.
	 */
	public static final boolean DEFAULT_EXPIRY_ON_BAD_REQUEST = true;

	/** Whether a request whose response stream broke may be re-issued by default. */
	public static final boolean DEFAULT_BROKEN_STREAM = true;

	/** Resumption attempts by default: enough to ride out a server's polling, bounded. */
	public static final int DEFAULT_RESUMPTION_ATTEMPTS = 3;

	/** Whether tool annotations may justify a re-issue by default. */
	public static final boolean DEFAULT_TRUST_ANNOTATIONS = true;

	/** Whether 2026-07-28 requests declare the tasks extension by default. */
	public static final boolean DEFAULT_TASK_EXTENSION = true;

	private static final RecoveryPolicy DEFAULTS = new Builder().build();

	private final boolean sessionExpiry;

	private final boolean expiryOnBadRequest;

	private final boolean brokenStream;

	private final int resumptionAttempts;

	private final boolean trustAnnotations;

	private final boolean taskExtension;

	private final Map<String, ToolReplay> tools;

	private RecoveryPolicy(Builder builder) {
		this.sessionExpiry = builder.sessionExpiry;
		this.expiryOnBadRequest = builder.expiryOnBadRequest;
		this.brokenStream = builder.brokenStream;
		this.resumptionAttempts = builder.resumptionAttempts;
		this.trustAnnotations = builder.trustAnnotations;
		this.taskExtension = builder.taskExtension;
		this.tools = Map.copyOf(builder.tools);
	}

	/**
	 * Everything on, annotations trusted, no per-tool override.
	 * @return the default policy
	 */
	public static RecoveryPolicy ofDefaults() {
		return DEFAULTS;
	}

	/**
	 * Starts a policy from the defaults.
	 * @return a builder
	 */
	public static Builder custom() {
		return new Builder();
	}

	/**
	 * Starts a policy from another one.
	 * @param base the policy to start from
	 * @return a builder holding the base's settings
	 */
	public static Builder from(RecoveryPolicy base) {
		return new Builder(base);
	}

	/**
	 * Whether an expired legacy session is re-initialized and the request retried
	 * (2025-11-25 basic/transports §Session Management, rule 4).
	 * @return {@code true} when on
	 */
	public boolean sessionExpiry() {
		return this.sessionExpiry;
	}

	/**
	 * Whether a 400 whose JSON-RPC error names the session counts as expiry, as some widely
	 * deployed servers answer a forgotten session so.
	 * @return {@code true} when on
	 */
	public boolean expiryOnBadRequest() {
		return this.expiryOnBadRequest;
	}

	/**
	 * Whether a request whose response stream broke may be re-issued (and a legacy stream
	 * resumed first).
	 * @return {@code true} when on
	 */
	public boolean brokenStream() {
		return this.brokenStream;
	}

	/**
	 * How often a broken legacy event stream is resumed with {@code Last-Event-ID} before
	 * its request counts as lost.
	 * @return zero or more
	 */
	public int resumptionAttempts() {
		return this.resumptionAttempts;
	}

	/**
	 * Whether the server's tool annotations may justify a re-issue (2025-11-25
	 * server/tools: annotations from untrusted servers must not drive decisions).
	 * @return {@code true} when trusted
	 */
	public boolean trustAnnotations() {
		return this.trustAnnotations;
	}

	/**
	 * The per-tool overrides of the replay decision.
	 * @return tool name to override, unmodifiable
	 */
	public Map<String, ToolReplay> tools() {
		return this.tools;
	}

	/**
	 * Whether 2026-07-28 requests declare the tasks extension ({@code io.modelcontextprotocol/tasks}),
	 * so that the server may answer a tool call with a task: a call that became a task is
	 * followed by its id, never sent again, so a lost answer is found again by asking the task
	 * (2026-07-28 tasks extension §Capability Negotiation; docs/architecture.md, "Tasks").
	 * @return {@code true} when on
	 */
	public boolean taskExtension() {
		return this.taskExtension;
	}

	/**
	 * The override for one tool.
	 * @param tool the tool name
	 * @return the override, {@link ToolReplay#ANNOTATIONS} when none is set
	 */
	public ToolReplay toolReplay(String tool) {
		return this.tools.getOrDefault(tool, ToolReplay.ANNOTATIONS);
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof RecoveryPolicy that && this.sessionExpiry == that.sessionExpiry
				&& this.expiryOnBadRequest == that.expiryOnBadRequest && this.brokenStream == that.brokenStream
				&& this.resumptionAttempts == that.resumptionAttempts && this.trustAnnotations == that.trustAnnotations
				&& this.taskExtension == that.taskExtension && this.tools.equals(that.tools);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.sessionExpiry, this.expiryOnBadRequest, this.brokenStream, this.resumptionAttempts,
				this.trustAnnotations, this.taskExtension, this.tools);
	}

	@Override
	public String toString() {
		return "RecoveryPolicy[sessionExpiry=" + this.sessionExpiry + ", expiryOnBadRequest="
				+ this.expiryOnBadRequest + ", brokenStream=" + this.brokenStream + ", resumptionAttempts="
				+ this.resumptionAttempts + ", trustAnnotations=" + this.trustAnnotations + ", taskExtension="
				+ this.taskExtension + ", tools=" + this.tools + "]";
	}

	/**
	 * Builds a {@link RecoveryPolicy}. Not thread-safe.
	 */
	public static final class Builder {

		private boolean sessionExpiry = DEFAULT_SESSION_EXPIRY;

		private boolean expiryOnBadRequest = DEFAULT_EXPIRY_ON_BAD_REQUEST;

		private boolean brokenStream = DEFAULT_BROKEN_STREAM;

		private int resumptionAttempts = DEFAULT_RESUMPTION_ATTEMPTS;

		private boolean trustAnnotations = DEFAULT_TRUST_ANNOTATIONS;

		private boolean taskExtension = DEFAULT_TASK_EXTENSION;

		private final Map<String, ToolReplay> tools = new LinkedHashMap<>();

		private Builder() {
		}

		private Builder(RecoveryPolicy base) {
			this.sessionExpiry = base.sessionExpiry;
			this.expiryOnBadRequest = base.expiryOnBadRequest;
			this.brokenStream = base.brokenStream;
			this.resumptionAttempts = base.resumptionAttempts;
			this.trustAnnotations = base.trustAnnotations;
			this.taskExtension = base.taskExtension;
			this.tools.putAll(base.tools);
		}

		/**
		 * Sets whether an expired legacy session is re-initialized and the request retried.
		 * @param enabled {@code false} to surface every expiry; default on
		 * @return this builder
		 */
		public Builder sessionExpiry(boolean enabled) {
			this.sessionExpiry = enabled;
			return this;
		}

		/**
		 * Sets whether a 400 whose JSON-RPC error names the session counts as expiry.
		 * @param enabled {@code false} to treat such a 400 as an ordinary error; default on
		 * @return this builder
		 */
		public Builder expiryOnBadRequest(boolean enabled) {
			this.expiryOnBadRequest = enabled;
			return this;
		}

		/**
		 * Sets whether a request whose response stream broke may be re-issued.
		 * @param enabled {@code false} to surface every lost stream; default on
		 * @return this builder
		 */
		public Builder brokenStream(boolean enabled) {
			this.brokenStream = enabled;
			return this;
		}

		/**
		 * Sets how often a broken legacy event stream is resumed first.
		 * @param attempts zero or more; default {@link #DEFAULT_RESUMPTION_ATTEMPTS}
		 * @return this builder
		 */
		public Builder resumptionAttempts(int attempts) {
			if (attempts < 0) {
				throw new IllegalArgumentException("Resumption attempts must not be negative, was " + attempts);
			}
			this.resumptionAttempts = attempts;
			return this;
		}

		/**
		 * Sets whether the server's tool annotations may justify a re-issue.
		 * @param trusted {@code false} for an upstream whose annotations are not trusted;
		 * default on
		 * @return this builder
		 */
		public Builder trustAnnotations(boolean trusted) {
			this.trustAnnotations = trusted;
			return this;
		}

		/**
		 * Sets whether 2026-07-28 requests declare the tasks extension, so that the server may
		 * answer a tool call with a task, followed to its outcome.
		 * @param enabled {@code false} to declare it on no request (then no task, and a tool the
		 * server runs only as a task is refused by it); default on
		 * @return this builder
		 */
		public Builder taskExtension(boolean enabled) {
			this.taskExtension = enabled;
			return this;
		}

		/**
		 * Sets the override of one tool, replacing any earlier one.
		 * @param tool the tool name
		 * @param replay the override
		 * @return this builder
		 */
		public Builder tool(String tool, ToolReplay replay) {
			this.tools.put(Objects.requireNonNull(tool, "tool"), Objects.requireNonNull(replay, "replay"));
			return this;
		}

		/**
		 * Replaces every per-tool override.
		 * @param tools tool name to override
		 * @return this builder
		 */
		public Builder tools(Map<String, ToolReplay> tools) {
			Map<String, ToolReplay> copy = Map.copyOf(tools);
			this.tools.clear();
			this.tools.putAll(copy);
			return this;
		}

		/**
		 * Builds the policy.
		 * @return an immutable policy
		 */
		public RecoveryPolicy build() {
			return new RecoveryPolicy(this);
		}

	}

}
