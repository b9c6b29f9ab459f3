package dev.mcpx.client.internal.session;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.io.Closeable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpHeaderMismatchException;
import dev.mcpx.client.error.McpHttpStatusException;
import dev.mcpx.client.error.McpJsonRpcException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.error.McpUnsupportedVersionException;
import dev.mcpx.client.internal.protocol.HeaderValues;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.transport.Envelope;
import dev.mcpx.client.internal.transport.ListenOutcome;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.ProtocolEra;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The modern era (2026-07-28): no handshake, no session. Every request carries the
 * protocol version, the client's capabilities and identity in {@code _meta}
 * (2026-07-28 basic §_meta) and mirrors them into headers (transports/streamable-http
 * §Request Metadata). The server is discovered once with {@code server/discover}, which
 * also settles the protocol version. Results that ask for input are answered through the
 * application's input handler ({@link InputAnswers}) and the request is sent again (basic/patterns/mrtr).
 */
public final class ModernSession implements ProtocolSession {

	private static final Log logger = LogFactory.getLog(ModernSession.class);

	/** Every modern revision this client speaks, newest first. */
	public static final List<String> SUPPORTED_VERSIONS = List.of("2026-07-28");

	private static final String META = "_meta";

	private static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

	private static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

	private static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

	/** The per-request log level that replaced {@code logging/setLevel} (2026-07-28 server/utilities/logging). */
	private static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

	private static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

	/** The tasks extension's identifier (2026-07-28 tasks extension, SEP-2663 §Extension Identifier). */
	public static final String TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

	private static final String METHOD_HEADER = "Mcp-Method";

	private static final String NAME_HEADER = "Mcp-Name";

	private final SessionSettings settings;

	private final Exchange exchange;

	private final InputRounds inputRounds;

	private final ObjectNode clientCapabilities;

	private final @Nullable String logLevel;

	private final Object discoveryLock = new Object();

	private volatile @Nullable SessionState state;

	/** The version the next discovery offers; guarded by {@code discoveryLock}. */
	private String offeredVersion = SUPPORTED_VERSIONS.get(0);

	private final boolean forced;

	private final Subscriptions subscriptions;

	private final boolean tasks;

	/**
	 * Creates the modern exchange of one client, whose listen stream also carries the
	 * updates of subscribed resources.
	 * @param settings the client's settings
	 * @param exchange performs the exchanges
	 * @param inputHandler answers input requests, absent when there is none
	 * @param forced whether the era is fixed by configuration (no detector falls back to
	 * legacy), so that a legacy server's rejection is explained as such
	 * @param subscriptions the client's resource subscriptions
	 * @param logLevel the least severe server log message wanted, carried by every request;
	 * absent for none, and then the server sends none (2026-07-28 server/utilities/logging)
	 * @param tasks whether every request declares the tasks extension, so that the server may
	 * answer a {@code tools/call} with a task (2026-07-28 tasks extension §Capability Negotiation)
	 */
	public ModernSession(SessionSettings settings, Exchange exchange, @Nullable InputAnswers inputHandler,
			boolean forced, Subscriptions subscriptions, @Nullable String logLevel, boolean tasks) {
		this.logLevel = logLevel;
		this.tasks = tasks;
		this.subscriptions = subscriptions;
		this.forced = forced;
		this.settings = settings;
		this.exchange = exchange;
		this.inputRounds = new InputRounds(settings.upstream(), inputHandler);
		this.clientCapabilities = exchange.jsonRpc().object();
		this.inputRounds.declare(this.clientCapabilities);
		if (tasks) {
			// SEP-2663 §Capability Negotiation: in the per-request capabilities, on every request, since
			// tasks/get, tasks/update and tasks/cancel need it as well as the requests that may create one
			this.clientCapabilities.putObject("extensions").putObject(TASKS_EXTENSION);
		}
	}

	/**
	 * Discovers the server once: its versions, capabilities and identity (2026-07-28
	 * server/discover). A refused version is the recovery layer's to renegotiate.
	 */
	@Override
	public SessionState open() {
		SessionState current = this.state;
		if (current != null) {
			return current;
		}
		synchronized (this.discoveryLock) {
			if (this.state == null) {
				try {
					this.state = discover(this.offeredVersion, 1);
				}
				catch (McpException ex) {
					throw this.forced ? explained(ex) : ex;
				}
			}
			return this.state;
		}
	}

	/**
	 * A forced-modern client meeting a legacy server says so, rather than showing its status:
	 * the rule of {@code protocol: auto} ({@link EraEvidence#ofDiscovery}), with the answer.
	 */
	private McpException explained(McpException failure) {
		if (EraEvidence.ofDiscovery(failure, false) == EraEvidence.Discovery.LEGACY) {
			return new McpProtocolException(this.settings.upstream(), "the upstream answered server/discover as a "
					+ "legacy (2025-11-25 or earlier) server does (" + EraEvidence.quoted(failure)
					+ "); it does not speak 2026-07-28. Set its protocol to auto or legacy", failure);
		}
		return failure;
	}

	private SessionState discover(String version, long generation) {
		SessionState probe = new SessionState(ProtocolEra.MODERN, generation, null, version, null, null);
		JsonNode result = send(probe, McpMethods.SERVER_DISCOVER, null, this.settings.handshakeTimeout(), Map.of());
		if (!result.path("supportedVersions").isArray()) {
			throw new NotModernServerException(this.settings.upstream());
		}
		String chosen = probe.protocolVersion();
		List<String> offered = strings(result.path("supportedVersions"));
		if (!offered.contains(chosen)) {
			String mutual = mutualVersion(offered);
			if (mutual == null) {
				throw new McpUnsupportedVersionException(this.settings.upstream(), McpMethods.SERVER_DISCOVER,
						"the server supports " + offered + "; this client speaks " + SUPPORTED_VERSIONS, result);
			}
			chosen = mutual;
		}
		JsonNode info = result.path(META).path(META_SERVER_INFO);
		Implementation serverInfo = info.isObject() ? new Implementation(info.path("name").asString(""),
				info.path("version").asString(""), info.path("title").asString(null)) : null;
		SessionState discovered = new SessionState(ProtocolEra.MODERN, generation, null, chosen, serverInfo,
				result.path("capabilities"));
		if (generation > 1) {
			return discovered;
		}
		logger.info("[" + this.settings.upstream() + "] connected: modern era, protocol " + chosen + ", server "
				+ ((serverInfo != null) ? serverInfo.name() + " " + serverInfo.version() : "(unnamed)"));
		return discovered;
	}

	@Override
	public @Nullable SessionState current() {
		return this.state;
	}

	/**
	 * Modern requests carry no session, so over HTTP nothing expires. A stdio upstream's
	 * channel is its process: when the process ended, the server is discovered again on the
	 * next generation, whose first request starts a new process, once for every caller that
	 * saw the old one end (2026-07-28 basic/transports/stdio §Unexpected Termination).
	 */
	@Override
	public SessionState renew(SessionState dead, RenewalListener listener) {
		synchronized (this.discoveryLock) {
			SessionState current = this.state;
			if (current == null) {
				return open();
			}
			if (current.generation() > dead.generation()) {
				return current;
			}
			listener.expired(dead);
			long started = System.nanoTime();
			SessionState next;
			try {
				next = discover(current.protocolVersion(), dead.generation() + 1);
			}
			catch (McpException ex) {
				listener.failed(dead, ex);
				throw ex;
			}
			this.state = next;
			listener.renewed(dead, next, java.time.Duration.ofNanos(System.nanoTime() - started));
			return next;
		}
	}

	@Override
	public void invalidate(SessionState dead) {
		synchronized (this.discoveryLock) {
			if (this.state == dead) {
				this.state = null;
			}
		}
	}

	/**
	 * Offers a mutually supported version from now on (2026-07-28 basic/versioning
	 * §Protocol Version Negotiation): to the next discovery, when the refusal came to one.
	 */
	@Override
	public @Nullable SessionState negotiate(@Nullable SessionState refused, List<String> supported) {
		String mutual = mutualVersion(supported);
		if (mutual == null) {
			return null;
		}
		synchronized (this.discoveryLock) {
			this.offeredVersion = mutual;
			if (refused == null) {
				return new SessionState(ProtocolEra.MODERN, 1, null, mutual, null, null);
			}
			SessionState next = new SessionState(ProtocolEra.MODERN, refused.generation(), null, mutual,
					refused.serverInfo(), refused.capabilities());
			this.state = next;
			return next;
		}
	}

	/**
	 * Sends the request, answering any input the server asks for and sending it again
	 * with the answers and the echoed {@code requestState}, each time with a new id
	 * ({@link InputRounds}).
	 */
	@Override
	public JsonNode request(SessionState on, McpRequest request) {
		// Sending copies the parameters: the caller's are never modified.
		ObjectNode params = (request.params() instanceof ObjectNode given) ? given : this.exchange.jsonRpc().object();
		JsonNode result = send(on, request.method(), params, request.timeout(), request.headers());
		for (int round = 1; InputRounds.isInputRequired(result); round++) {
			params = this.inputRounds.next(params, result, request.method(), round);
			result = send(on, request.method(), params, request.timeout(), request.headers());
		}
		return result;
	}

	private JsonNode send(SessionState on, String method, @Nullable JsonNode params, Duration timeout,
			Map<String, String> extraHeaders) {
		ObjectNode withMeta = withMeta(on, params);
		Envelope envelope = envelope(on, method, withMeta, extraHeaders);
		JsonNode result;
		try {
			result = this.exchange.request(method, withMeta, envelope, timeout, ExchangeOptions.MODERN).result();
		}
		catch (McpHttpStatusException ex) {
			throw typed(ex, method);
		}
		if (method.equals(McpMethods.TASKS_GET) && result.get("error") instanceof ObjectNode error
				&& error.path("message").isString()) {
			// a failed task's error is the call's JSON-RPC error: scrubbed as one is
			error.put("message", this.exchange.scrub(error.path("message").stringValue(), envelope));
		}
		String resultType = result.path("resultType").asString("complete");
		if (resultType.equals("task")) {
			// SEP-2663 §Capability Negotiation: a task answers only a supported request (tools/call) of a
			// client that declared the extension; any other is an invalid response
			if (!this.tasks || !method.equals(McpMethods.TOOLS_CALL)) {
				throw new McpProtocolException(this.settings.upstream(), method + " was answered with a task (resultType "
						+ "'task'), which " + (this.tasks ? "only tools/call may be" : "this client did not declare (tasks "
								+ "extension disabled)") + " (2026-07-28 tasks extension §Capability Negotiation)", null);
			}
			return result;
		}
		if (!resultType.equals("complete") && !resultType.equals("input_required")) {
			throw new McpProtocolException(this.settings.upstream(),
					method + " returned an unknown resultType '" + resultType + "'", null);
		}
		return result;
	}

	/** A copy of the parameters with this client's request metadata (2026-07-28 basic §_meta). */
	private ObjectNode withMeta(SessionState on, @Nullable JsonNode params) {
		ObjectNode withMeta = (params != null) ? ((ObjectNode) params).deepCopy() : this.exchange.jsonRpc().object();
		ObjectNode meta = (withMeta.get(META) instanceof ObjectNode existing) ? existing : withMeta.putObject(META);
		meta.put(META_PROTOCOL_VERSION, on.protocolVersion());
		meta.set(META_CLIENT_CAPABILITIES, this.clientCapabilities.deepCopy());
		ObjectNode clientInfo = meta.putObject(META_CLIENT_INFO);
		clientInfo.put("name", this.settings.clientInfo().name());
		clientInfo.put("version", this.settings.clientInfo().version());
		if (this.logLevel != null) {
			meta.put(META_LOG_LEVEL, this.logLevel);
		}
		return withMeta;
	}

	/**
	 * What a modern request carries besides its JSON: the protocol version and the metadata
	 * mirrored from the body (2026-07-28 transports/streamable-http §Request Metadata), then
	 * a tool's own header parameters (§Schema Extension).
	 */
	private static Envelope envelope(SessionState on, String method, JsonNode body, Map<String, String> extra) {
		Map<String, String> mirrored = new LinkedHashMap<>();
		mirrored.put(METHOD_HEADER, method);
		String name = mirroredName(method, body);
		if (name != null) {
			mirrored.put(NAME_HEADER, HeaderValues.encode(name));
		}
		mirrored.putAll(extra);
		return new Envelope(method, on.generation(), null, on.protocolVersion(), mirrored);
	}

	/**
	 * The body value {@code Mcp-Name} mirrors: {@code params.name} of a tool call or prompt,
	 * {@code params.uri} of a resource read, {@code params.taskId} of a request naming a task
	 * (2026-07-28 tasks extension §Streamable HTTP: Routing Headers, a MUST: intermediaries route
	 * by it to the instance holding the task).
	 */
	private static @Nullable String mirroredName(String method, JsonNode params) {
		return switch (method) {
			case McpMethods.TOOLS_CALL, McpMethods.PROMPTS_GET -> params.path("name").asString(null);
			case McpMethods.RESOURCES_READ -> params.path("uri").asString(null);
			case McpMethods.TASKS_GET, McpMethods.TASKS_UPDATE, McpMethods.TASKS_CANCEL -> params.path("taskId").asString(null);
			default -> null;
		};
	}

	/**
	 * Modern errors are JSON-RPC errors whatever their status (404 + -32601 is an unknown
	 * method, never an expired session); other statuses stay HTTP failures.
	 */
	private McpException typed(McpHttpStatusException ex, String method) {
		Integer code = ex.jsonRpcCode();
		if (code == null) {
			return ex;
		}
		// the transport reads a code with its message, "" when the body had none
		String message = Objects.requireNonNullElse(ex.jsonRpcMessage(), "");
		if (code == McpUnsupportedVersionException.CODE) {
			return new McpUnsupportedVersionException(this.settings.upstream(), method, message, ex.jsonRpcData());
		}
		if (code == McpHeaderMismatchException.CODE) {
			return new McpHeaderMismatchException(this.settings.upstream(), method, message, ex.jsonRpcData());
		}
		if (EraEvidence.isModernErrorCode(code) || (ex.status() == 404 && code == McpJsonRpcException.METHOD_NOT_FOUND)) {
			return new McpJsonRpcException(this.settings.upstream(), method, code, message, ex.jsonRpcData());
		}
		return ex;
	}

	private static @Nullable String mutualVersion(List<String> supported) {
		for (String version : SUPPORTED_VERSIONS) {
			if (supported.contains(version)) {
				return version;
			}
		}
		return null;
	}

	private static List<String> strings(JsonNode array) {
		java.util.ArrayList<String> values = new java.util.ArrayList<>();
		for (JsonNode item : array) {
			if (item.isString()) {
				values.add(item.stringValue());
			}
		}
		return values;
	}

	/**
	 * 2026-07-28 basic/patterns/subscriptions: one {@code subscriptions/listen} for the
	 * three list changes, with the request metadata every request carries.
	 */
	@Override
	public ListenOutcome listen(SessionState on, Consumer<Closeable> opened) {
		ObjectNode params = this.exchange.jsonRpc().object();
		ObjectNode filter = params.putObject("notifications");
		filter.put("toolsListChanged", true);
		filter.put("promptsListChanged", true);
		filter.put("resourcesListChanged", true);
		if (this.subscriptions.active()) {
			// 2026-07-28 basic/patterns/subscriptions §Notification Filter: the updates of these resources.
			var uris = filter.putArray("resourceSubscriptions");
			this.subscriptions.uris().forEach(uris::add);
		}
		ObjectNode withMeta = withMeta(on, params);
		return this.exchange.listen(withMeta, envelope(on, McpMethods.SUBSCRIPTIONS_LISTEN, withMeta, Map.of()), opened,
				ExchangeOptions.MODERN);
	}

	@Override
	public EraTraits traits(SessionState on) {
		return EraTraits.MODERN;
	}

	/** Nothing to end: modern requests hold no server-side state. */
	@Override
	public void close() {
	}

}
