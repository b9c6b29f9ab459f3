package dev.mcpx.client;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.GetPromptResult;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.Prompt;
import dev.mcpx.client.model.ProtocolEra;
import dev.mcpx.client.model.ReadResourceResult;
import dev.mcpx.client.model.Resource;
import dev.mcpx.client.model.ResourceTemplate;
import dev.mcpx.client.model.Tool;

/**
 * A client for one upstream MCP server.
 * <p>
 * Thread-safe: any number of threads may call one client at once. The client connects
 * lazily on first use and recovers from an expired session by itself; every failure it
 * cannot recover from surfaces as an unchecked {@link McpException}. A tool result with
 * {@code isError: true} is a result, not an exception.
 *
 * @see McpClients
 */
public interface McpClient extends AutoCloseable {

	/**
	 * Starts building a client for one upstream.
	 * @param name the upstream name, used in logs, events and errors
	 * @param url the MCP endpoint, http or https
	 * @return a builder
	 */
	static McpClientBuilder builder(String name, URI url) {
		return new McpClientBuilder(name, url);
	}

	/**
	 * Starts building a client for a stdio upstream: a server process the client starts on
	 * first use, restarts when it exits unexpectedly and stops on {@link #close()}.
	 * @param name the upstream name, used in logs, events and errors
	 * @param command how to start the server
	 * @return a builder
	 */
	static McpClientBuilder stdio(String name, StdioCommand command) {
		return new McpClientBuilder(name, command);
	}

	/**
	 * The upstream's name, as declared under {@code mcpx.clients.<name>}.
	 * @return the upstream name
	 */
	String name();

	/**
	 * Lists every tool the server offers, following every {@code nextCursor}; served from
	 * the {@link #catalogue()} while fresh. In the modern era, tools whose
	 * {@code x-mcp-header} declarations are invalid are left out.
	 * @return the tools, with their annotations as the server declared them
	 */
	List<Tool> listTools();

	/**
	 * Calls a tool.
	 * @param name the tool name
	 * @param arguments the tool arguments, serialized as JSON; may be empty
	 * @return the result, which may report a tool-level error through {@code isError()}
	 */
	CallToolResult callTool(String name, Map<String, ?> arguments);

	/**
	 * Lists every prompt the server offers, following every {@code nextCursor}; served from
	 * the {@link #catalogue()} while fresh.
	 * @return the prompts
	 */
	List<Prompt> listPrompts();

	/**
	 * Gets a prompt, rendered with the given arguments.
	 * @param name the prompt name
	 * @param arguments the prompt arguments; may be empty
	 * @return the rendered prompt
	 */
	GetPromptResult getPrompt(String name, Map<String, String> arguments);

	/**
	 * Lists every resource the server offers, following every {@code nextCursor}; served
	 * from the {@link #catalogue()} while fresh.
	 * @return the resources
	 */
	List<Resource> listResources();

	/**
	 * Lists every resource template the server offers, following every
	 * {@code nextCursor}; served from the {@link #catalogue()} while fresh.
	 * @return the resource templates
	 */
	List<ResourceTemplate> listResourceTemplates();

	/**
	 * Reads a resource.
	 * @param uri the resource URI
	 * @return the resource contents
	 */
	ReadResourceResult readResource(String uri);

	/**
	 * Sends a {@code ping} and waits for the answer.
	 */
	void ping();

	/**
	 * The protocol era this client speaks with its upstream, once known.
	 * @return the era, or empty before the first exchange
	 */
	Optional<ProtocolEra> era();

	/**
	 * The protocol revision negotiated with the upstream, once known.
	 * @return the revision, for example {@code 2025-11-25}, or empty before the first exchange
	 */
	Optional<String> protocolVersion();

	/**
	 * The server's self-description from its last handshake.
	 * @return the server implementation, or empty before the first exchange
	 */
	Optional<Implementation> serverInfo();

	/**
	 * The cached listings of this upstream, which the list methods serve while fresh.
	 * @return the catalogue
	 */
	McpCatalogue catalogue();

	/**
	 * The client's state for operators: era, server, session generation, recoveries and
	 * the outcome of recent requests. Never contacts the upstream.
	 * @return a snapshot, safe to show
	 */
	McpClientStatus status();

	/**
	 * Ends the session with the upstream (an HTTP DELETE, bounded to about two seconds,
	 * errors ignored) and releases the client. Calls after close fail.
	 */
	@Override
	void close();

}
