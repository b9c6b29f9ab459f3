package dev.mcpx.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpNoUserException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Implementation;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Every configured upstream over HTTP: what it is, its tools, and calling them.
 * <p>
 * An upstream that cannot answer turns into {@code 502 Bad Gateway} with the client's
 * message; an unknown upstream name into {@code 404}.
 * <p>
 * Under {@code /me/upstreams} the same endpoints need a signed-in user's bearer token
 * ({@link dev.mcpx.sample.secure.SignedInUsers}): an upstream with {@code oauth.identity: user}
 * is then called as that user. Called without a user, such an upstream answers {@code 401}.
 */
@RestController
@RequestMapping({ "/upstreams", "/me/upstreams" })
public class UpstreamController {

	private final ObjectProvider<McpClients> clients;

	/**
	 * Creates the controller.
	 * @param clients every configured client, if mcpx is configured at all
	 */
	public UpstreamController(ObjectProvider<McpClients> clients) {
		this.clients = clients;
	}

	/**
	 * Describes every upstream. Nothing is known about an upstream before its client's
	 * first exchange: clients connect lazily.
	 * @return one entry per upstream, in declaration order
	 */
	@GetMapping
	public List<Upstream> upstreams() {
		List<Upstream> upstreams = new ArrayList<>();
		McpClients all = this.clients.getIfAvailable();
		if (all != null) {
			for (McpClient client : all) {
				upstreams.add(new Upstream(client.name(),
						client.era().map((era) -> era.name().toLowerCase(Locale.ROOT)).orElse(null),
						client.protocolVersion().orElse(null), client.serverInfo().orElse(null)));
			}
		}
		return upstreams;
	}

	/**
	 * Lists an upstream's tools.
	 * @param name the upstream name
	 * @return its tools, with their behaviour in plain words
	 */
	@GetMapping("/{name}/tools")
	public List<ToolInfo> tools(@PathVariable String name) {
		return ask(name, (client) -> client.listTools().stream().map(ToolInfo::of).toList());
	}

	/**
	 * Calls a tool of an upstream.
	 * @param name the upstream name
	 * @param tool the tool name
	 * @param arguments the tool arguments, as a JSON object; may be absent
	 * @return the tool's text and whether it reported an error
	 */
	@PostMapping("/{name}/tools/{tool}")
	public ToolCall call(@PathVariable String name, @PathVariable String tool,
			@RequestBody(required = false) Map<String, Object> arguments) {
		Map<String, Object> args = (arguments != null) ? arguments : Map.of();
		CallToolResult result = ask(name, (client) -> client.callTool(tool, args));
		return new ToolCall(result.text(), result.isError());
	}

	private <T> T ask(String name, Function<McpClient, T> question) {
		McpClients all = this.clients.getIfAvailable();
		if (all == null || !all.names().contains(name)) {
			throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No MCP upstream named '" + name + "'");
		}
		try {
			return question.apply(all.get(name));
		}
		catch (McpNoUserException ex) {
			throw new ResponseStatusException(HttpStatus.UNAUTHORIZED,
					"Upstream '" + name + "' acts for the signed-in user: call /me/upstreams/" + name
							+ "/... with your bearer token",
					ex);
		}
		catch (RuntimeException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_GATEWAY,
					"Upstream '" + name + "' could not answer: " + ex.getMessage(), ex);
		}
	}

	/**
	 * An upstream as its client knows it.
	 * @param name the upstream name
	 * @param era {@code legacy} or {@code modern}, or {@code null} before the first exchange
	 * @param protocolVersion the negotiated revision, or {@code null} before the first exchange
	 * @param serverInfo the server's self-description, or {@code null} before the first exchange
	 */
	public record Upstream(String name, @Nullable String era, @Nullable String protocolVersion,
			@Nullable Implementation serverInfo) {
	}

	/**
	 * A tool, with its annotations also in plain words.
	 * @param name the tool name
	 * @param title the title, or {@code null}
	 * @param description the description, or {@code null}
	 * @param behaviour the annotations in plain words, for example {@code read-only}
	 * @param annotations the hints as the server declared them
	 */
	public record ToolInfo(String name, @Nullable String title, @Nullable String description, String behaviour,
			Hints annotations) {

		static ToolInfo of(Tool tool) {
			ToolAnnotations hints = tool.annotations();
			return new ToolInfo(tool.name(), tool.title(), tool.description(), ToolBehaviour.describe(hints),
					new Hints(hints.readOnlyHint(), hints.destructiveHint(), hints.idempotentHint(),
							hints.openWorldHint()));
		}

	}

	/**
	 * A tool's behaviour hints, exactly as the server stated them ({@code null} when not
	 * stated).
	 * @param readOnlyHint whether the tool only reads
	 * @param destructiveHint whether the tool may destroy
	 * @param idempotentHint whether a repeated call has no further effect
	 * @param openWorldHint whether the tool reaches an open world
	 */
	public record Hints(@Nullable Boolean readOnlyHint, @Nullable Boolean destructiveHint,
			@Nullable Boolean idempotentHint, @Nullable Boolean openWorldHint) {
	}

	/**
	 * The outcome of a tool call.
	 * @param text the text of the result's content
	 * @param isError whether the tool reported an error
	 */
	public record ToolCall(String text, boolean isError) {
	}

}
