package dev.mcpx.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpCapabilityException;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.catalogue.ToolRegistry;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.McpMethods;
import dev.mcpx.client.internal.protocol.ResultMapper;
import dev.mcpx.client.internal.protocol.ToolHeaders;
import dev.mcpx.client.internal.recovery.Pagination;
import dev.mcpx.client.internal.recovery.RequestExecutor;
import dev.mcpx.client.internal.session.McpRequest;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.CatalogueKind;
import dev.mcpx.client.model.GetPromptResult;
import dev.mcpx.client.model.Implementation;
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
	private static final Set<String> SERVER_CAPABILITIES = Set.of("tools", "prompts", "resources");

	private final String name;

	private final JsonRpc jsonRpc;

	private final ProtocolSession session;

	private final RequestExecutor executor;

	private final ToolRegistry tools;

	private final Duration requestTimeout;

	private final ClientStats stats;

	private final Catalogue catalogue;

	private final McpCatalogue catalogueView;

	/** Told of every success: starts what waits for a working connection (the listen stream). */
	private final Runnable connected;

	private final ObservationRegistry observations;

	private final Pagination pagination;

	private volatile AutoCloseable resources = () -> {
	};

	private final AtomicBoolean closed = new AtomicBoolean();

	DefaultMcpClient(String name, JsonRpc jsonRpc, ProtocolSession session, RequestExecutor executor,
			ToolRegistry tools, Catalogue catalogue, Duration requestTimeout, ClientStats stats,
			ObservationRegistry observations, Runnable connected) {
		this.name = name;
		this.jsonRpc = jsonRpc;
		this.session = session;
		this.executor = executor;
		this.tools = tools;
		this.requestTimeout = requestTimeout;
		this.stats = stats;
		this.catalogue = catalogue;
		this.catalogueView = new McpCatalogue(catalogue);
		this.observations = observations;
		this.pagination = new Pagination(name, jsonRpc);
		this.connected = connected;
		// The replay gate's evidence and the modern call headers: an unknown tool is listed.
		tools.listWith(this::refreshTools);
	}

	/**
	 * Sets what to release after the session is closed.
	 * @param resources releases the client's threads
	 */
	void onClose(AutoCloseable resources) {
		this.resources = resources;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public List<Tool> listTools() {
		List<Tool> listed = this.catalogue.get(CatalogueKind.TOOLS, this::fetchTools);
		return (currentEra() == ProtocolEra.MODERN) ? withoutInvalidHeaders(listed) : listed;
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
		Catalogue.Listing<Tool> listing = listAll(McpMethods.TOOLS_LIST, "tools", ResultMapper::tool);
		// The replay gate's evidence comes from the same listing as the cache.
		this.tools.remember(listing.items());
		return listing;
	}

	/**
	 * A tool whose {@code x-mcp-header} declarations are invalid is left out of the listing
	 * and never called (2026-07-28 transports/streamable-http §Schema Extension).
	 */
	private List<Tool> withoutInvalidHeaders(List<Tool> listed) {
		List<Tool> valid = new ArrayList<>(listed.size());
		for (Tool tool : listed) {
			ToolHeaders headers = this.tools.headers(tool.name());
			if (headers.isValid()) {
				valid.add(tool);
			}
			else {
				logger.warn("[" + this.name + "] left tool '" + tool.name() + "' out of the listing: "
						+ headers.invalidReason());
			}
		}
		return List.copyOf(valid);
	}

	@Override
	public CallToolResult callTool(String toolName, Map<String, ?> arguments) {
		requireText(toolName, "tool name");
		ObjectNode params = this.jsonRpc.object();
		params.put("name", toolName);
		JsonNode args = this.jsonRpc.mapper().valueToTree((arguments != null) ? arguments : Map.of());
		params.set("arguments", args);
		learnBeforeFirstCall(toolName);
		return ResultMapper.callToolResult(send(McpMethods.TOOLS_CALL, params, toolName,
				(state) -> (state.era() == ProtocolEra.MODERN) ? headerParameters(toolName, args) : Map.of()));
	}

	/**
	 * Lists tools (from the catalogue when fresh) before a tool's first call, so that its
	 * annotations are known before they are needed: a recovery that must decide whether to
	 * re-issue the call may find the upstream down, unable to list anything. A failed
	 * listing does not stop the call.
	 */
	private void learnBeforeFirstCall(String toolName) {
		if (!this.tools.worthListingFor(toolName)) {
			return;
		}
		try {
			listTools();
			this.tools.notedAfterListing(toolName);
		}
		catch (McpException ex) {
			logger.debug("[" + this.name + "] could not list tools before calling " + toolName + ": " + ex.getMessage());
		}
	}

	/**
	 * The {@code Mcp-Param-*} headers of a modern tool call; a tool with invalid
	 * declarations is not called (2026-07-28 transports/streamable-http §Schema Extension).
	 */
	private Map<String, String> headerParameters(String toolName, JsonNode args) {
		ToolHeaders declared = this.tools.headers(toolName);
		if (!declared.isValid()) {
			throw new McpProtocolException(this.name, "tool '" + toolName + "' declares invalid x-mcp-header "
					+ "parameters (" + declared.invalidReason() + "); it was not called", null);
		}
		return declared.headersFor(args);
	}

	@Override
	public List<Prompt> listPrompts() {
		return this.catalogue.get(CatalogueKind.PROMPTS,
				() -> listAll(McpMethods.PROMPTS_LIST, "prompts", ResultMapper::prompt));
	}

	@Override
	public GetPromptResult getPrompt(String promptName, Map<String, String> arguments) {
		requireText(promptName, "prompt name");
		ObjectNode params = this.jsonRpc.object();
		params.put("name", promptName);
		ObjectNode args = params.putObject("arguments");
		if (arguments != null) {
			arguments.forEach(args::put);
		}
		return ResultMapper.getPromptResult(send(McpMethods.PROMPTS_GET, params, null));
	}

	@Override
	public List<Resource> listResources() {
		return this.catalogue.get(CatalogueKind.RESOURCES,
				() -> listAll(McpMethods.RESOURCES_LIST, "resources", ResultMapper::resource));
	}

	@Override
	public List<ResourceTemplate> listResourceTemplates() {
		return this.catalogue.get(CatalogueKind.RESOURCE_TEMPLATES, () -> listAll(McpMethods.RESOURCES_TEMPLATES_LIST,
				"resourceTemplates", ResultMapper::resourceTemplate));
	}

	@Override
	public ReadResourceResult readResource(String uri) {
		requireText(uri, "resource URI");
		ObjectNode params = this.jsonRpc.object();
		params.put("uri", uri);
		return ResultMapper.readResourceResult(send(McpMethods.RESOURCES_READ, params, null));
	}

	@Override
	public void ping() {
		send(McpMethods.PING, null, null);
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
		return this.stats.snapshot(this.session.current());
	}

	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		try {
			this.session.close();
		}
		finally {
			try {
				this.resources.close();
			}
			catch (Exception ex) {
				// Releasing threads cannot fail in a way the caller could act on.
			}
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

	/**
	 * A modern page's freshness: its {@code ttlMs}, 0 when absent or negative (2026-07-28
	 * server/utilities/caching §Time-to-Live). Legacy pages carry none: {@code null}, the
	 * catalogue's default applies.
	 */
	private @Nullable Duration pageTtl(JsonNode page) {
		if (currentEra() != ProtocolEra.MODERN) {
			return null;
		}
		JsonNode ttlMs = page.get("ttlMs");
		return Duration.ofMillis((ttlMs != null && ttlMs.isIntegralNumber()) ? Math.max(0, ttlMs.longValue()) : 0);
	}

	private JsonNode send(String method, @Nullable JsonNode params, @Nullable String toolName) {
		return send(method, params, toolName, (state) -> Map.of());
	}

	/**
	 * The one way a request leaves the client API: connecting first if need be, then
	 * through the executor, observed and counted whatever happens on the way.
	 */
	private JsonNode send(String method, @Nullable JsonNode params, @Nullable String toolName,
			Function<SessionState, Map<String, String>> headers) {
		if (this.closed.get()) {
			throw new McpException(this.name, "the client is closed", null);
		}
		Observation observation = McpObservation.start(this.observations, this.name, method);
		try (Observation.Scope scope = observation.openScope()) {
			SessionState state = this.executor.connect();
			String wireMethod = onTheWire(method, state);
			requireCapability(wireMethod, state);
			JsonNode result = this.executor.execute(
					new McpRequest(wireMethod, params, toolName, this.requestTimeout, headers.apply(state)));
			this.stats.succeeded();
			this.connected.run();
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

	private ProtocolEra currentEra() {
		SessionState state = this.session.current();
		return (state != null) ? state.era() : null;
	}

	/**
	 * Only capabilities the server declared are used (2025-11-25 basic/lifecycle
	 * §Operation).
	 */
	/** A modern server has no {@code ping}; {@code server/discover} is its cheapest request. */
	private static String onTheWire(String method, SessionState state) {
		return (McpMethods.PING.equals(method) && state.era() == ProtocolEra.MODERN) ? McpMethods.SERVER_DISCOVER
				: method;
	}

	private void requireCapability(String method, SessionState state) {
		int slash = method.indexOf('/');
		String capability = (slash > 0) ? method.substring(0, slash) : null;
		if (capability == null || !SERVER_CAPABILITIES.contains(capability)) {
			return;
		}
		// Modern servers declare capabilities only through an optional discovery.
		if (state.era() == ProtocolEra.LEGACY && !state.capabilities().has(capability)) {
			throw new McpCapabilityException(this.name, method, capability);
		}
	}

	private static void requireText(String value, String what) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException("The " + what + " must not be empty");
		}
	}

}
