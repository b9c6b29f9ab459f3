package dev.mcpx.client;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpNoUserException;
import dev.mcpx.client.model.CallToolResult;
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

/**
 * The {@link McpClient} of an upstream that acts for each user
 * ({@link McpClientBuilder#userIdentity(McpUserIdentity)}): every call goes out with the
 * calling thread's user's credentials and, in the legacy era, that user's session, since a
 * server binds a session to the identity that opened it (2025-11-25 basic/authorization
 * §Token Handling: tokens are not passed through); how is {@link UserCalls}' (a client per
 * user, or one client carrying each user's token in the modern era). A call without a user is
 * refused before anything is sent ({@link McpNoUserException}); it never goes out as the
 * application.
 * <p>
 * What it shows of itself never names a user: its status counts the users' sessions and sums
 * their outcomes; its catalogue drops every user's listings and shows none.
 */
final class PerUserMcpClient implements McpClient {

	private final String name;

	private final String shownUrl;

	private final McpUserIdentity identity;

	private final UserCalls users;

	private final McpCatalogue catalogue;

	/** The user's client that served the last call: era and server, as the status shows them. */
	private final AtomicReference<@Nullable McpClient> lastUsed = new AtomicReference<>();

	private final AtomicBoolean closed = new AtomicBoolean();

	PerUserMcpClient(String name, String shownUrl, McpUserIdentity identity, UserCalls users) {
		this.name = name;
		this.shownUrl = shownUrl;
		this.identity = identity;
		this.users = users;
		this.catalogue = new McpCatalogue(() -> {
			List<McpCatalogue> catalogues = new ArrayList<>();
			users.clients().forEach((client) -> catalogues.add(client.catalogue()));
			return catalogues;
		});
	}

	/** Runs one call for the calling thread's user. */
	private <T> T forUser(String method, Function<McpClient, T> call) {
		return forUser(method, (user, client) -> call.apply(client));
	}

	private <T> T forUser(String method, BiFunction<String, McpClient, T> call) {
		String user = user(method);
		UserCalls.Hold hold = this.users.hold(user, method);
		try {
			this.lastUsed.set(hold.client());
			return call.apply(user, hold.client());
		}
		finally {
			hold.release().run();
		}
	}

	private String user(String method) {
		String user = this.identity.currentUser();
		if (user == null) {
			throw new McpNoUserException(this.name, method);
		}
		return user;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public List<Tool> listTools() {
		return forUser("tools/list", McpClient::listTools);
	}

	@Override
	public CallToolResult callTool(String name, Map<String, ?> arguments) {
		return forUser("tools/call", (client) -> client.callTool(name, arguments));
	}

	@Override
	public CallToolResult callTool(String name, Map<String, ?> arguments, McpCallOptions options) {
		return forUser("tools/call", (client) -> client.callTool(name, arguments, options));
	}

	/**
	 * Starts a task in the user's session. Its handle polls through that user's client; a
	 * user's client evicted from the pool (idle, or to make room) while the task runs ends its
	 * polling, and {@link #resumeTask(McpTaskReference)} by the same user follows the task again.
	 */
	@Override
	public McpTask startTool(String name, Map<String, ?> arguments) {
		return forUser("tools/call", (user, client) -> this.users.task(user, client.startTool(name, arguments)));
	}

	@Override
	public McpTask resumeTask(McpTaskReference reference) {
		return forUser("tasks/get", (user, client) -> this.users.task(user, client.resumeTask(reference)));
	}

	@Override
	public List<Prompt> listPrompts() {
		return forUser("prompts/list", McpClient::listPrompts);
	}

	@Override
	public GetPromptResult getPrompt(String name, Map<String, String> arguments) {
		return forUser("prompts/get", (client) -> client.getPrompt(name, arguments));
	}

	@Override
	public List<Resource> listResources() {
		return forUser("resources/list", McpClient::listResources);
	}

	@Override
	public List<ResourceTemplate> listResourceTemplates() {
		return forUser("resources/templates/list", McpClient::listResourceTemplates);
	}

	@Override
	public ReadResourceResult readResource(String uri) {
		return forUser("resources/read", (client) -> client.readResource(uri));
	}

	/**
	 * Subscribes in the user's session. The user's client stays in the pool while the
	 * subscription is open, so it is never evicted under it.
	 */
	@Override
	public McpSubscription subscribe(String uri, Consumer<McpResourceUpdate> onUpdate) {
		String user = user("resources/subscribe");
		UserCalls.Hold hold = this.users.hold(user, "resources/subscribe");
		McpSubscription subscription;
		try {
			subscription = hold.client().subscribe(uri, onUpdate);
		}
		catch (RuntimeException ex) {
			hold.release().run();
			throw ex;
		}
		AtomicBoolean ended = new AtomicBoolean();
		return new McpSubscription() {

			@Override
			public String uri() {
				return subscription.uri();
			}

			@Override
			public void close() {
				if (ended.compareAndSet(false, true)) {
					try {
						subscription.close();
					}
					finally {
						hold.release().run();
					}
				}
			}

		};
	}

	@Override
	public Completion complete(CompletionReference reference, String argument, String value,
			Map<String, String> context) {
		return forUser("completion/complete", (client) -> client.complete(reference, argument, value, context));
	}

	/** Every user's session hears of the change: each declared the same roots. */
	@Override
	public void rootsChanged() {
		this.users.clients().forEach(McpClient::rootsChanged);
	}

	@Override
	public void ping() {
		forUser("ping", (client) -> {
			client.ping();
			return null;
		});
	}

	@Override
	public Optional<ProtocolEra> era() {
		McpClient last = this.lastUsed.get();
		return (last != null) ? last.era() : Optional.empty();
	}

	@Override
	public Optional<String> protocolVersion() {
		McpClient last = this.lastUsed.get();
		return (last != null) ? last.protocolVersion() : Optional.empty();
	}

	@Override
	public Optional<Implementation> serverInfo() {
		McpClient last = this.lastUsed.get();
		return (last != null) ? last.serverInfo() : Optional.empty();
	}

	@Override
	public McpCatalogue catalogue() {
		return this.catalogue;
	}

	/**
	 * The upstream's status over its users' sessions, by count: the era and server of the last
	 * one used, the highest generation, recoveries and re-issues summed over the users in the
	 * pool now, and the latest success and failure of any.
	 */
	@Override
	public McpClientStatus status() {
		List<McpClientStatus> users = new ArrayList<>();
		this.users.clients().forEach((client) -> users.add(client.status()));
		McpClient last = this.lastUsed.get();
		McpClientStatus shown = (last != null) ? last.status() : null;
		McpClientStatus failed = users.stream()
			.filter((status) -> status.lastFailureAt() != null)
			.max(Comparator.comparing(McpClientStatus::lastFailureAt))
			.orElse(null);
		return new McpClientStatus(this.name, this.shownUrl, (shown != null) ? shown.era() : null,
				(shown != null) ? shown.protocolVersion() : null, (shown != null) ? shown.serverInfo() : null,
				users.stream().mapToLong(McpClientStatus::sessionGeneration).max().orElse(0),
				users.stream().mapToLong(McpClientStatus::recoveries).sum(),
				users.stream().mapToLong(McpClientStatus::reissues).sum(),
				users.stream().map(McpClientStatus::lastRecoveryAt).filter((at) -> at != null).max(Comparator.naturalOrder()).orElse(null),
				users.stream().map(McpClientStatus::lastSuccessAt).filter((at) -> at != null).max(Comparator.naturalOrder()).orElse(null),
				(failed != null) ? failed.lastFailureAt() : null, (failed != null) ? failed.lastError() : null,
				(failed != null) ? failed.lastErrorType() : null, (shown != null) ? shown.consecutiveFailures() : 0,
				null, this.users.counts());
	}

	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.users.close();
		}
	}

	@Override
	public String toString() {
		return "McpClient[" + this.name + ", per user]";
	}

}
