package dev.mcpx.sample.demo;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo MCP upstream: an official MCP Java SDK server (sync, Streamable HTTP, with
 * sessions) served inside this application at {@value #PATH}, and restartable in place.
 * <p>
 * A real upstream that restarts forgets every session, and its clients see their next
 * request answered with 404. The SDK cannot do that by itself: closing its transport makes
 * it answer 503 for good. So {@link #restart()} builds a whole new transport and server and
 * swaps it in behind the servlet mapped at {@value #PATH}; old session ids then meet a
 * server that never heard of them and get 404, exactly as after a real restart.
 * <p>
 * It also counts how often each tool really ran, which shows whether a client replayed a
 * call after a restart.
 */
public class DemoUpstream {

	/** The path the demo upstream is served at. */
	public static final String PATH = "/demo/mcp";

	private static final Logger logger = LoggerFactory.getLogger(DemoUpstream.class);

	private final DemoTools tools;

	private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();

	private final AtomicReference<Instance> current = new AtomicReference<>();

	private @Nullable ServletConfig servletConfig;

	/**
	 * Creates the upstream; it serves nothing until its servlet is initialized.
	 * @param tools the tools, prompt and resource it offers
	 */
	public DemoUpstream(DemoTools tools) {
		this.tools = tools;
		// Every tool is listed from the start, at 0, so "never ran" is visible too.
		tools.tools().forEach((spec) -> this.executions.put(spec.tool().name(), new AtomicInteger()));
	}

	/**
	 * Makes the upstream forget every session, as a process restart would. Tools, data
	 * and execution counts are kept.
	 * @return the generation now serving, starting at 1 before the first restart
	 * @throws IllegalStateException if the upstream is not running
	 */
	public synchronized int restart() {
		Instance old = this.current.get();
		if (old == null) {
			throw new IllegalStateException("The demo upstream is not running");
		}
		// New first, then swap, then close: requests never find the endpoint without a server.
		this.current.set(newInstance(old.generation() + 1));
		old.server().closeGracefully();
		logger.info("Demo upstream restarted (generation {}): every session is forgotten", generation());
		return generation();
	}

	/**
	 * The generation now serving: 1 at startup, one more after each {@link #restart()}.
	 * @return the generation, or 0 when not running
	 */
	public int generation() {
		Instance instance = this.current.get();
		return (instance != null) ? instance.generation() : 0;
	}

	/**
	 * How many times each tool has run, over every generation.
	 * @return the counts by tool name, sorted by name
	 */
	public Map<String, Integer> executions() {
		Map<String, Integer> counts = new TreeMap<>();
		this.executions.forEach((tool, count) -> counts.put(tool, count.get()));
		return counts;
	}

	synchronized void start(ServletConfig config) {
		this.servletConfig = config;
		this.current.set(newInstance(1));
	}

	synchronized void stop() {
		Instance instance = this.current.getAndSet(null);
		if (instance != null) {
			instance.server().closeGracefully();
		}
	}

	HttpServlet transport() {
		Instance instance = this.current.get();
		if (instance == null) {
			throw new IllegalStateException("The demo upstream is not running");
		}
		return instance.transport();
	}

	private Instance newInstance(int generation) {
		HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
			.mcpEndpoint(PATH) // the provider answers 404 to any other path
			// The SDK's idle-session sweeper runs on a thread that closing the server does not
			// stop: one leaked thread per restart. Sessions here end by restart (or DELETE).
			.sessionSweepInterval(null)
			.build();
		McpSyncServer server = McpServer.sync(transport)
			.serverInfo("mcpx-demo-weather", "1.0.0")
			.instructions("A small weather service for the mcpx sample app.")
			.capabilities(ServerCapabilities.builder().tools(false).prompts(false).resources(false, false).build())
			.tools(this.tools.tools().stream().map(this::counted).toList())
			.prompts(this.tools.prompts())
			.resources(this.tools.resources())
			.build();
		try {
			// The servlet container only initializes the servlet it knows: the forwarding one.
			// start(...) keeps the container's config before the first instance is made
			transport.init(Objects.requireNonNull(this.servletConfig, "servletConfig"));
		}
		catch (ServletException ex) {
			server.close();
			throw new IllegalStateException("Could not initialize the demo upstream's transport", ex);
		}
		return new Instance(generation, transport, server);
	}

	private SyncToolSpecification counted(SyncToolSpecification spec) {
		AtomicInteger count = this.executions.computeIfAbsent(spec.tool().name(), (name) -> new AtomicInteger());
		return SyncToolSpecification.builder().tool(spec.tool()).callHandler((exchange, request) -> {
			count.incrementAndGet();
			return spec.callHandler().apply(exchange, request);
		}).build();
	}

	private record Instance(int generation, HttpServletStreamableServerTransportProvider transport,
			McpSyncServer server) {
	}

}
