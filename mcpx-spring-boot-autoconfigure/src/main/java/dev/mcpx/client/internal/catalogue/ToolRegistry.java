package dev.mcpx.client.internal.catalogue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import dev.mcpx.client.internal.protocol.ToolHeaders;
import dev.mcpx.client.model.TaskSupport;
import dev.mcpx.client.model.Tool;
import dev.mcpx.client.model.ToolAnnotations;

/**
 * What a client learned about tools at list time: each tool's annotations (the replay
 * gate's evidence), its {@code x-mcp-header} declarations (the headers of its calls) and
 * whether it may be called as a task.
 * Filled by every {@code tools/list}; when a tool is unknown, the registry can list tools
 * once (read-shaped, safe) to learn it.
 * <p>
 * A tool the server can call but does not list stays unknown. So that calling it does not
 * cost a listing every time (with a {@code ttlMs} of 0 nothing else stops it), the registry
 * remembers that a listing did not contain it and lists again for it only after
 * {@link #ABSENT_RECHECK}, or sooner when the listings or the session changed.
 */
public final class ToolRegistry {

	/** How long a tool missing from a listing is taken to be missing still. */
	public static final Duration ABSENT_RECHECK = Duration.ofSeconds(30);

	/** Bound of the names remembered as missing: names come from the application. */
	private static final int MAX_ABSENT = 1024;

	private final Map<String, Known> tools = new ConcurrentHashMap<>();

	/** Tool names a listing did not contain, with when (nanoTime) that was found. */
	private final Map<String, Long> absent = new ConcurrentHashMap<>();

	private final LongSupplier nanoTime;

	private volatile Runnable lister = () -> {
	};

	/**
	 * Creates an empty registry: for a catalogue, which owns it.
	 */
	ToolRegistry() {
		this(System::nanoTime);
	}

	ToolRegistry(LongSupplier nanoTime) {
		this.nanoTime = nanoTime;
	}

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
			this.tools.put(tool.name(), new Known(tool.annotations(), ToolHeaders.of(tool.inputSchema()), tool.taskSupport()));
			this.absent.remove(tool.name());
		}
	}

	/**
	 * Whether listing tools could teach anything about this tool: it is unknown, and no
	 * recent listing was found without it.
	 * @param tool the tool name
	 * @return {@code true} when a listing is worth making for it
	 */
	public boolean worthListingFor(String tool) {
		if (this.tools.containsKey(tool)) {
			return false;
		}
		Long missingSince = this.absent.get(tool);
		return missingSince == null || this.nanoTime.getAsLong() - missingSince >= ABSENT_RECHECK.toNanos();
	}

	/**
	 * Notes that a complete listing did not contain a tool, if it did not.
	 * @param tool the tool name
	 */
	public void notedAfterListing(String tool) {
		if (this.tools.containsKey(tool)) {
			return;
		}
		if (this.absent.size() >= MAX_ABSENT) {
			this.absent.clear();
		}
		this.absent.put(tool, this.nanoTime.getAsLong());
	}

	/** Listings dropped or a new session: a missing tool may be there now. */
	void forgetAbsent() {
		this.absent.clear();
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
	 * The annotations of a tool, listing tools first if it was never seen (and not found
	 * missing lately).
	 * @param tool the tool name
	 * @return the annotations, empty when the server does not list the tool
	 */
	public Optional<ToolAnnotations> learn(String tool) {
		if (worthListingFor(tool)) {
			listFor(tool);
		}
		return find(tool);
	}

	/**
	 * Whether a tool may be called as a task, as its last listing said (2025-11-25
	 * basic/utilities/tasks §Tool-Level Negotiation).
	 * @param tool the tool name
	 * @return the support; {@link TaskSupport#FORBIDDEN} for a tool never listed
	 */
	public TaskSupport taskSupport(String tool) {
		Known known = this.tools.get(tool);
		return (known != null) ? known.taskSupport() : TaskSupport.FORBIDDEN;
	}

	/**
	 * The header declarations of a tool, listing tools first if it was never seen (and not
	 * found missing lately).
	 * @param tool the tool name
	 * @return the declarations; {@link ToolHeaders#NONE} when the server does not list it
	 */
	public ToolHeaders headers(String tool) {
		if (worthListingFor(tool)) {
			listFor(tool);
		}
		Known known = this.tools.get(tool);
		return (known != null) ? known.headers() : ToolHeaders.NONE;
	}

	/**
	 * The header declarations of a tool as the server lists them now: tools are listed
	 * again first, since the server said the headers it got were not the ones it expects.
	 * @param tool the tool name
	 * @return the declarations; {@link ToolHeaders#NONE} when the server does not list it
	 */
	public ToolHeaders relearn(String tool) {
		listFor(tool);
		Known known = this.tools.get(tool);
		return (known != null) ? known.headers() : ToolHeaders.NONE;
	}

	private void listFor(String tool) {
		this.lister.run();
		notedAfterListing(tool);
	}

	private record Known(ToolAnnotations annotations, ToolHeaders headers, TaskSupport taskSupport) {
	}

}
