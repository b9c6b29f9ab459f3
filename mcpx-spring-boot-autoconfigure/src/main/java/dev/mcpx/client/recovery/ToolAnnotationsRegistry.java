package dev.mcpx.client.recovery;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;

/**
 * The tool annotations a client has seen at list time: the replay gate's evidence. Filled
 * by every {@code tools/list}; when a tool is unknown, the registry can list tools once
 * (read-shaped, safe) to learn it.
 */
public final class ToolAnnotationsRegistry {

	private final Map<String, ToolAnnotations> annotations = new ConcurrentHashMap<>();

	private volatile Runnable lister = () -> {
	};

	/**
	 * Sets how to list tools when annotations are missing.
	 * @param lister lists every tool, which calls {@link #remember(List)}
	 */
	public void listWith(Runnable lister) {
		this.lister = lister;
	}

	/**
	 * Records the annotations of a complete tool listing.
	 * @param tools the tools listed
	 */
	public void remember(List<Tool> tools) {
		for (Tool tool : tools) {
			this.annotations.put(tool.name(), tool.annotations());
		}
	}

	/**
	 * The annotations seen for a tool.
	 * @param tool the tool name
	 * @return the annotations, empty when never listed
	 */
	public Optional<ToolAnnotations> find(String tool) {
		return Optional.ofNullable(this.annotations.get(tool));
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

}
