package dev.mcpx.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.internal.catalogue.Catalogue;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.RequestParams;
import dev.mcpx.client.internal.protocol.ToolHeaders;
import dev.mcpx.client.internal.session.ProtocolSession;
import dev.mcpx.client.internal.session.SessionState;
import dev.mcpx.client.model.Tool;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@link DefaultMcpClient} settles before a {@code tools/call} leaves it: the tool is
 * known (listed before its first call), and its era's headers are derived from its
 * declarations (2026-07-28 transports/streamable-http §Schema Extension).
 */
final class ToolCallPreparation {

	private static final Log logger = LogFactory.getLog(ToolCallPreparation.class);

	private final String name;

	private final JsonRpc jsonRpc;

	private final ProtocolSession session;

	private final Catalogue catalogue;

	/** Lists tools through the client (from the catalogue when fresh). */
	private final Runnable lister;

	ToolCallPreparation(String name, JsonRpc jsonRpc, ProtocolSession session, Catalogue catalogue,
			Runnable lister) {
		this.name = name;
		this.jsonRpc = jsonRpc;
		this.session = session;
		this.catalogue = catalogue;
		this.lister = lister;
	}

	/**
	 * A tool whose {@code x-mcp-header} declarations are invalid is left out of the listing
	 * and never called (2026-07-28 transports/streamable-http §Schema Extension).
	 */
	List<Tool> withoutInvalidHeaders(List<Tool> listed) {
		List<Tool> valid = new ArrayList<>(listed.size());
		for (Tool tool : listed) {
			ToolHeaders headers = this.catalogue.tools().headers(tool.name());
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

	/** A tool call's parameters, once its tool is known ({@link #learnBeforeFirstCall}). */
	ObjectNode params(String toolName, @Nullable Map<String, ?> arguments) {
		ObjectNode params = RequestParams.toolCall(this.jsonRpc, toolName, arguments);
		learnBeforeFirstCall(toolName);
		return params;
	}

	/** The headers a tool call carries in its era: none, or its arguments mirrored (modern). */
	Function<SessionState, Map<String, String>> headers(String toolName, ObjectNode call) {
		JsonNode args = call.path("arguments");
		return (state) -> this.session.traits(state).mirrorsToolArguments() ? headerParameters(toolName, args)
				: Map.of();
	}

	/**
	 * Lists tools (from the catalogue when fresh) before a tool's first call, so that its
	 * annotations are known before they are needed: a recovery that must decide whether to
	 * re-issue the call may find the upstream down, unable to list anything. A failed
	 * listing does not stop the call.
	 */
	private void learnBeforeFirstCall(String toolName) {
		if (!this.catalogue.tools().worthListingFor(toolName)) {
			return;
		}
		try {
			this.lister.run();
			this.catalogue.tools().notedAfterListing(toolName);
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
		ToolHeaders declared = this.catalogue.tools().headers(toolName);
		if (!declared.isValid()) {
			throw new McpProtocolException(this.name, "tool '" + toolName + "' declares invalid x-mcp-header "
					+ "parameters (" + declared.invalidReason() + "); it was not called", null);
		}
		return declared.headersFor(args);
	}

}
