package dev.mcpx.client;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Completion;
import dev.mcpx.client.model.CompletionReference;
import dev.mcpx.client.model.McpResourceUpdate;
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
	 * Starts building a client for one upstream served by several interchangeable instances
	 * (replicas of one server, for example as a service registry lists them): a legacy session
	 * stays on one instance and moves to another when that one leaves; modern requests are
	 * spread over the live ones.
	 * @param name the upstream name, used in logs, events and errors
	 * @param endpoints the live endpoints, asked for on every request
	 * @return a builder
	 * @see McpEndpoints
	 */
	static McpClientBuilder builder(String name, McpEndpoints endpoints) {
		return new McpClientBuilder(name, endpoints);
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
	 * Calls a tool. A call that becomes a task (the tool requires one, or
	 * {@link McpClientBuilder#taskAugmentation} asks for one) is followed to its outcome within
	 * this call, by its task id.
	 * @param name the tool name
	 * @param arguments the tool arguments, serialized as JSON; may be empty
	 * @return the result, which may report a tool-level error through {@code isError()}
	 */
	CallToolResult callTool(String name, Map<String, ?> arguments);

	/**
	 * Calls a tool with per-call options: a progress consumer, a timeout that progress
	 * starts afresh, a hard cap, request metadata. Interrupting the calling thread cancels
	 * the call: the server is told, and the call fails with
	 * {@link dev.mcpx.client.error.McpCancelledException}.
	 * @param name the tool name
	 * @param arguments the tool arguments, serialized as JSON; may be empty
	 * @param options the options of this call
	 * @return the result, which may report a tool-level error through {@code isError()}
	 */
	CallToolResult callTool(String name, Map<String, ?> arguments, McpCallOptions options);

	/**
	 * Starts a tool call that may outlive the caller's wait: as a task whenever the tool supports
	 * one (2025-11-25 basic/utilities/tasks: {@code execution.taskSupport} {@code optional} or
	 * {@code required}, on a server that offers task-augmented tool calls); in the 2026-07-28 era
	 * the server decides, under the tasks extension every request declares. Returns once the
	 * server has created the task; a call the server answers directly gives a task already
	 * completed. Once the task id is known, the call is never sent again.
	 * @param name the tool name
	 * @param arguments the tool arguments, serialized as JSON; may be empty
	 * @return the task, to await, cancel or keep a reference to
	 */
	McpTask startTool(String name, Map<String, ?> arguments);

	/**
	 * Takes up a task by its reference (from this client, another client of the same upstream,
	 * or another process): asks the server for its state once, in the session the task is bound
	 * to, without an {@code initialize} when that is not this client's session; after that
	 * session expired, once in a new session. A task bound to no session (a 2026-07-28 task) is
	 * asked in the era the upstream speaks.
	 * @param reference the task, as {@link McpTask#reference()} gave it
	 * @return the task
	 * @throws IllegalArgumentException for a task of another upstream, or a call that was
	 * answered directly
	 * @throws dev.mcpx.client.error.McpTaskLostException when the server no longer knows the task
	 */
	McpTask resumeTask(McpTaskReference reference);

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
	 * Subscribes to the updates of a resource (2025-11-25 server/resources §Subscriptions;
	 * 2026-07-28 basic/patterns/subscriptions). The subscription outlives recoveries: after
	 * one, the client subscribes again in the new session and delivers one update with
	 * {@link McpResourceUpdate#mayHaveMissedUpdates()} set, so the application reads the
	 * resource again.
	 * @param uri the resource URI
	 * @param onUpdate receives the updates, on the thread that read them; must not block
	 * @return the subscription; close it to unsubscribe
	 */
	McpSubscription subscribe(String uri, Consumer<McpResourceUpdate> onUpdate);

	/**
	 * Asks the server to complete an argument of a prompt or a resource template
	 * (2025-11-25 server/utilities/completion).
	 * @param reference the prompt or resource template
	 * @param argument the argument's name
	 * @param value what has been typed so far
	 * @param context the values of arguments already resolved; may be empty
	 * @return the suggestions
	 */
	Completion complete(CompletionReference reference, String argument, String value, Map<String, String> context);

	/**
	 * Tells the server that the roots the client's input handler lists have changed
	 * ({@code notifications/roots/list_changed}, 2025-11-25 client/roots §Root List Changes),
	 * when the session is open and the client declared roots; otherwise nothing is sent.
	 */
	void rootsChanged();

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
