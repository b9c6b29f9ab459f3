package dev.mcpx.client.recovery;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;
import dev.mcpx.client.protocol.ToolHeaders;

/**
 * What a client learned about tools at list time: each tool's annotations (the replay
 * gate's evidence) and its {@code x-mcp-header} declarations (the headers of its calls).
 * Filled by every {@code tools/list}; when a tool is unknown, the registry can list tools
 * once (read-shaped, safe) to learn it.
 */
public final class ToolRegistry {

	private final Map<String, Known> tools = new ConcurrentHashMap<>();

	private volatile Runnable lister = () -> {
	};

	/**
	 * Sets how to list tools when one is unknown.
	 * @param lister lists every tool, which calls {@link #remember(List)}
	 */
	public void listWith(Runnable lister) {
		this.lister = lister;
	}

	/**
	 * Records the tools of a complete listing, and the header declarations of each.
	 * @param tools the tools listed
	 */
	public void remember(List<Tool> tools) {
		for (Tool tool : tools) {
			this.tools.put(tool.name(), new Known(tool.annotations(), ToolHeaders.of(tool.inputSchema())));
		}
	}

	/**
	 * The annotations seen for a tool.
	 * @param tool the tool name
	 * @return the annotations, empty when never listed
	 */
	public Optional<ToolAnnotations> find(String tool) {
		return Optional.ofNullable(this.tools.get(tool)).map(Known::annotations);
	}

	/**
	 * The annotations of a tool, listing tools first if it was never seen.
	 * @param tool the tool name
	 * @return the annotations, empty when the server does not list the tool
	 */
	public Optional<ToolAnnotations> learn(String tool) {
		Optional<ToolAnnotations> known = find(tool);
		if (known.isPresent()) {
			return known;
		}
		this.lister.run();
		return find(tool);
	}

	/**
	 * The header declarations of a tool, listing tools first if it was never seen.
	 * @param tool the tool name
	 * @return the declarations; {@link ToolHeaders#NONE} when the server does not list it
	 */
	public ToolHeaders headers(String tool) {
		Known known = this.tools.get(tool);
		if (known == null) {
			this.lister.run();
			known = this.tools.get(tool);
		}
		return (known != null) ? known.headers() : ToolHeaders.NONE;
	}

	/**
	 * The header declarations of a tool as the server lists them now: tools are listed
	 * again first, since the server said the headers it got were not the ones it expects.
	 * @param tool the tool name
	 * @return the declarations; {@link ToolHeaders#NONE} when the server does not list it
	 */
	public ToolHeaders relearn(String tool) {
		this.lister.run();
		Known known = this.tools.get(tool);
		return (known != null) ? known.headers() : ToolHeaders.NONE;
	}

	private record Known(ToolAnnotations annotations, ToolHeaders headers) {
	}

}
