package dev.mcpx.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpCapabilityException;
import dev.mcpx.client.error.McpClientClosedException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.internal.assembly.ClientParts;
import dev.mcpx.client.internal.assembly.ClientSettings;
import dev.mcpx.client.internal.assembly.ClientStats;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.RequestParams;
import dev.mcpx.client.internal.protocol.ResultMapper;
import dev.mcpx.client.internal.recovery.Keepalive;
import dev.mcpx.client.internal.recovery.Pagination;
import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.ListenLoop;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.ProgressRoutes;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.CatalogueKind;
import dev.mcpx.client.model.Completion;
import dev.mcpx.client.model.CompletionReference;
import dev.mcpx.client.model.GetPromptResult;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.McpResourceUpdate;
import dev.mcpx.client.model.Prompt;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.ReadResourceResult;
import dev.mcpx.client.model.Resource;
import dev.mcpx.client.model.ResourceTemplate;
import dev.mcpx.client.model.Tool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link McpClient} behind {@link McpClient#builder(String, java.net.URI)}: turns API
 * calls into MCP requests, sends each through the one {@link RequestExecutor}, and maps
 * results to the model.
 */
final class DefaultMcpClient implements McpClient {

	private static final Log logger = LogFactory.getLog(DefaultMcpClient.class);

	/** Method prefixes that name the server capability they need. */
	private static final Set<String> SERVER_CAPABILITIES = Set.of("tools", "prompts", "resources", "completions");

	private static final Function<SessionState, Map<String, String>> NO_HEADERS = (state) -> Map.of();

	private final String name;

	private final JsonRpc jsonRpc;

	private final ProtocolSession session;

	private final RequestExecutor executor;

	private final Catalogue catalogue;

	private final McpCatalogue catalogueView;

	private final Pagination pagination;

	private final Duration requestTimeout;

	private final ClientStats stats;

	private final ObservationRegistry observations;

	/** Keeps the notification stream open once a connection works; absent when off. */
	private final @Nullable ListenLoop listenLoop;

	private final @Nullable Keepalive keepalive;

	/** Released after the session is closed, in order: threads, then the transport. */
	private final List<AutoCloseable> resources;

	private final AtomicBoolean closed = new AtomicBoolean();

	/** The calls in flight, and the drain when the client leaves {@link McpClients}. */
	private final Admission admission;

	private final ProgressRoutes progress;

	private final TaskCalls taskCalls;

	private final ToolCallPreparation toolCalls;

	private final ResourceSubscriptions subscriptions;

	/** Whether the client declared roots, so that it may announce their change. */
	private final boolean declaresRoots;

	/** Whether every user's calls go through this client: then only public listings are cached. */
	private volatile boolean sharedByUsers;

	DefaultMcpClient(ClientParts parts, @Nullable McpTaskStore taskStore) {
		ClientSettings settings = parts.settings();
		this.name = settings.name();
		this.admission = new Admission(this.name);
		this.requestTimeout = settings.requestTimeout();
		this.observations = settings.observationRegistry();
		this.jsonRpc = parts.jsonRpc();
		this.session = parts.session();
		this.executor = parts.executor();
		this.catalogue = parts.catalogue();
		this.catalogueView = new McpCatalogue(parts.catalogue());
		this.pagination = new Pagination(this.name, this.jsonRpc);
		this.stats = parts.stats();
		this.listenLoop = parts.listenLoop();
		this.progress = parts.progress();
		this.toolCalls = new ToolCallPreparation(this.name, this.jsonRpc, this.session, this.catalogue, this::tools);
		this.taskCalls = new TaskCalls(this.name, this.session, this.executor, parts.taskAugment(), parts.tasks(),
				this.jsonRpc, new TaskJournal(this.name, taskStore, parts.events(), this.jsonRpc, settings.clock()));
		this.subscriptions = new ResourceSubscriptions(this.name, parts.subscriptions(), this.executor, this.session,
				this.listenLoop, (method, params) -> send(method, params, null), this.closed::get);
		this.declaresRoots = parts.declaresRoots();
		this.resources = parts.resources();
		// Recovery and modern calls learn an unknown tool by listing, through this client
		// like any request: the one late binding of the assembly (docs/architecture.md).
		this.catalogue.tools().listWith(this::refreshTools);
		Duration keepaliveInterval = settings.keepaliveInterval();
		this.keepalive = (keepaliveInterval != null) ? new Keepalive(this.name, keepaliveInterval,
				() -> this.session.current() != null, this::ping) : null;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public List<Tool> listTools() {
		return admitted(this::tools);
	}

	private List<Tool> tools() {
		List<Tool> listed = this.catalogue.get(CatalogueKind.TOOLS, this::fetchTools);
		SessionState state = this.session.current();
		return (state != null && this.session.traits(state).mirrorsToolArguments()) ? this.toolCalls.withoutInvalidHeaders(listed)
				: listed;
	}

	@Override
	public McpCatalogue catalogue() {
		return this.catalogueView;
	}

	/** Lists tools from the server, past the cache: to learn a tool the cache does not know. */
	private void refreshTools() {
		this.catalogue.refresh(CatalogueKind.TOOLS, this::fetchTools);
	}

	private Catalogue.Listing<Tool> fetchTools() {
		return listAll(McpMethods.TOOLS_LIST, "tools", ResultMapper::tool);
	}

	@Override
	public CallToolResult callTool(String toolName, Map<String, ?> arguments) {
		requireText(toolName, "tool name");
		return admitted(() -> {
			ObjectNode params = this.toolCalls.params(toolName, arguments);
			Duration cap = this.requestTimeout.multipliedBy(McpCallOptions.DEFAULT_MAX_TOTAL_FACTOR);
			return ResultMapper.callToolResult(this.taskCalls.call(params, toolName, this.requestTimeout, cap, null, false,
					(call) -> send(McpMethods.TOOLS_CALL, call, toolName, this.toolCalls.headers(toolName, call), this.requestTimeout)));
		});
	}

	@Override
	public CallToolResult callTool(String toolName, Map<String, ?> arguments, McpCallOptions options) {
		requireText(toolName, "tool name");
		McpCallOptions given = (options != null) ? options : McpCallOptions.defaults();
		Duration timeout = (given.timeout() != null) ? given.timeout() : this.requestTimeout;
		return admitted(() -> callTool(toolName, arguments, given, timeout));
	}

	private CallToolResult callTool(String toolName, Map<String, ?> arguments, McpCallOptions given,
			Duration timeout) {
		ObjectNode params = this.toolCalls.params(toolName, arguments);
		try (ProgressRoutes.Route route = this.progress.open(given.onProgress(), timeout,
				given.resetTimeoutOnProgress(), given.maxTotalTimeout(timeout))) {
			// 2025-11-25 basic/utilities/progress: the token goes in _meta; a re-issue carries the same one.
			ObjectNode meta = params.putObject("_meta");
			given.meta().forEach((key, value) -> meta.set(key, this.jsonRpc.mapper().valueToTree(value)));
			meta.put("progressToken", route.token());
			return ResultMapper.callToolResult(this.taskCalls.call(params, toolName, timeout,
					given.maxTotalTimeout(timeout), given.onProgress(), given.leaveTaskRunning(),
					(call) -> send(McpMethods.TOOLS_CALL, call, toolName, this.toolCalls.headers(toolName, call), timeout)));
		}
	}

	@Override
	public McpTask startTool(String toolName, Map<String, ?> arguments) {
		requireText(toolName, "tool name");
		return admitted(() -> this.taskCalls.start(this.toolCalls.params(toolName, arguments), toolName, this.requestTimeout,
				(call) -> send(McpMethods.TOOLS_CALL, call, toolName, this.toolCalls.headers(toolName, call), this.requestTimeout)));
	}

	@Override
	public McpTask resumeTask(McpTaskReference reference) {
		java.util.Objects.requireNonNull(reference, "reference");
		return admitted(() -> this.taskCalls.resume(reference, this.requestTimeout));
	}

	@Override
	public List<Prompt> listPrompts() {
		return admitted(() -> this.catalogue.get(CatalogueKind.PROMPTS,
				() -> listAll(McpMethods.PROMPTS_LIST, "prompts", ResultMapper::prompt)));
	}

	@Override
	public GetPromptResult getPrompt(String promptName, Map<String, String> arguments) {
		requireText(promptName, "prompt name");
		return admitted(() -> ResultMapper.getPromptResult(
				send(McpMethods.PROMPTS_GET, RequestParams.promptGet(this.jsonRpc, promptName, arguments), null)));
	}

	@Override
	public List<Resource> listResources() {
		return admitted(() -> this.catalogue.get(CatalogueKind.RESOURCES,
				() -> listAll(McpMethods.RESOURCES_LIST, "resources", ResultMapper::resource)));
	}

	@Override
	public List<ResourceTemplate> listResourceTemplates() {
		return admitted(() -> this.catalogue.get(CatalogueKind.RESOURCE_TEMPLATES,
				() -> listAll(McpMethods.RESOURCES_TEMPLATES_LIST, "resourceTemplates", ResultMapper::resourceTemplate)));
	}

	@Override
	public ReadResourceResult readResource(String uri) {
		requireText(uri, "resource URI");
		return admitted(() -> ResultMapper.readResourceResult(
				send(McpMethods.RESOURCES_READ, RequestParams.resourceRead(this.jsonRpc, uri), null)));
	}

	@Override
	public McpSubscription subscribe(String uri, Consumer<McpResourceUpdate> onUpdate) {
		requireText(uri, "resource URI");
		return admitted(() -> this.subscriptions.subscribe(uri, onUpdate));
	}

	@Override
	public Completion complete(CompletionReference reference, String argument, String value,
			Map<String, String> context) {
		java.util.Objects.requireNonNull(reference, "reference");
		requireText(argument, "argument name");
		return admitted(() -> ResultMapper.completion(send(McpMethods.COMPLETION_COMPLETE,
				RequestParams.completion(this.jsonRpc, reference, argument, value, context), null)));
	}

	@Override
	public void rootsChanged() {
		SessionState state = this.session.current();
		if (!this.declaresRoots || state == null || this.closed.get()) {
			return;
		}
		try {
			this.session.notify(state, McpMethods.ROOTS_LIST_CHANGED, null, this.requestTimeout);
		}
		catch (McpException ex) {
			logger.debug("[" + this.name + "] could not announce changed roots: " + ex.getMessage());
		}
	}

	@Override
	public void ping() {
		admitted(() -> send(McpMethods.PING, null, null));
	}

	@Override
	public Optional<ProtocolEra> era() {
		return Optional.ofNullable(this.session.current()).map(SessionState::era);
	}

	@Override
	public Optional<String> protocolVersion() {
		return Optional.ofNullable(this.session.current()).map(SessionState::protocolVersion);
	}

	@Override
	public Optional<Implementation> serverInfo() {
		return Optional.ofNullable(this.session.current()).map(SessionState::serverInfo);
	}

	@Override
	public McpClientStatus status() {
		SessionState state = this.session.current();
		ClientStats s = this.stats;
		return new McpClientStatus(this.name, s.shownUrl(), (state != null) ? state.era() : null,
				(state != null) ? state.protocolVersion() : null, (state != null) ? state.serverInfo() : null,
				(state != null) ? state.generation() : 0, s.recoveries(), s.reissues(), s.lastRecoveryAt(),
				s.lastSuccessAt(), s.lastFailureAt(), s.lastError(), s.lastErrorType(), s.consecutiveFailures(),
				s.process());
	}

	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		this.admission.stop();
		try {
			this.session.close();
		}
		finally {
			if (this.listenLoop != null) {
				this.listenLoop.close();
			}
			if (this.keepalive != null) {
				this.keepalive.close();
			}
			for (AutoCloseable resource : this.resources) {
				try {
					resource.close();
				}
				catch (Exception ex) {
					// Releasing threads cannot fail in a way the caller could act on.
				}
			}
			this.admission.closed();
		}
	}

	/**
	 * Stops taking calls, lets the calls in flight finish within their own timeouts, then
	 * closes the client ({@link McpClients#remove}).
	 * @param why why, for the message of a call refused meanwhile
	 * @return completes when the client is closed
	 */
	CompletableFuture<Void> drain(String why) {
		return this.admission.drain(why, this::close);
	}

	/** A call of the API, taken only while the client takes calls. */
	private <T> T admitted(Supplier<T> call) {
		this.admission.enter();
		try {
			return call.get();
		}
		finally {
			this.admission.exit();
		}
	}

	@Override
	public String toString() {
		return "McpClient[" + this.name + "]";
	}

	/** Every page of a listing, through the one way a request leaves the client API. */
	private <T> Catalogue.Listing<T> listAll(String method, String field, Function<JsonNode, T> mapper) {
		return this.pagination.listAll(method, field, mapper, this::pageTtl, (page, params) -> send(page, params, null));
	}

	/** A page's freshness, as its era gives it; absent for the catalogue's default. */
	private @Nullable Duration pageTtl(JsonNode page) {
		if (this.sharedByUsers && !"public".equals(page.path("cacheScope").asString(""))) {
			return Duration.ZERO; // 2026-07-28 server/utilities/caching §Cache Scope: "private" is per user
		}
		SessionState state = this.session.current();
		return (state != null) ? this.session.traits(state).freshness(page) : null;
	}

	/** Every user's calls go through this client from now on ({@link UserTokens}). */
	void shareAmongUsers() {
		this.sharedByUsers = true;
	}

	private JsonNode send(String method, @Nullable JsonNode params, @Nullable String toolName) {
		return send(method, params, toolName, NO_HEADERS, this.requestTimeout);
	}

	/**
	 * The one way a request leaves the client API: connecting first if need be, then
	 * through the executor, observed and counted whatever happens on the way.
	 */
	private JsonNode send(String method, @Nullable JsonNode params, @Nullable String toolName,
			Function<SessionState, Map<String, String>> headers, Duration timeout) {
		if (this.closed.get()) {
			throw new McpClientClosedException(this.name, "close() was called");
		}
		Observation observation = McpObservation.start(this.observations, this.name, method);
		try (Observation.Scope scope = observation.openScope()) {
			SessionState state = this.executor.connect();
			String wireMethod = this.session.traits(state).wireMethod(method);
			requireCapability(wireMethod, state);
			JsonNode result = this.executor.execute(
					new McpRequest(wireMethod, params, toolName, timeout, headers.apply(state)));
			this.stats.succeeded();
			if (this.listenLoop != null) {
				this.listenLoop.start();
			}
			observation.lowCardinalityKeyValue(McpObservation.OUTCOME, McpObservation.SUCCESS);
			return result;
		}
		catch (McpException ex) {
			this.stats.failed(ex);
			observation.lowCardinalityKeyValue(McpObservation.OUTCOME, ex.getClass().getSimpleName());
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

	/**
	 * Only capabilities the server declared are used (2025-11-25 basic/lifecycle
	 * §Operation), as far as its era declares them.
	 */
	private void requireCapability(String method, SessionState state) {
		int slash = method.indexOf('/');
		// 2025-11-25 server/utilities/completion §Capabilities: completion/complete needs "completions".
		String capability = McpMethods.COMPLETION_COMPLETE.equals(method) ? "completions"
				: (slash > 0) ? method.substring(0, slash) : null;
		if (capability == null || !SERVER_CAPABILITIES.contains(capability)) {
			return;
		}
		if (!this.session.traits(state).mayUse(state, capability)) {
			throw new McpCapabilityException(this.name, method, capability);
		}
	}

	private static void requireText(String value, String what) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException("The " + what + " must not be empty");
		}
	}

}
