package dev.mcpx.autoconfigure.ai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

import dev.mcpx.autoconfigure.McpxProperties.SpringAi.Expose;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.model.Tool;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every tool of every upstream as a Spring AI {@link ToolCallback}, read from each
 * upstream's catalogue each time it is asked, so that a {@code list_changed}, a recovered
 * session or an expired listing shows in the next chat request. Upstreams are listed
 * concurrently; one that is unavailable is left out (logged once per outage) unless
 * {@code mcpx.spring-ai.fail-on-unavailable-upstream} is set.
 * <p>
 * Names: a tool keeps its own name (after its upstream's {@code spring-ai.tool-prefix}),
 * made valid for the common model APIs ({@code ^[a-zA-Z0-9_-]{1,64}$}). When two upstreams
 * offer the same name, both are offered as {@code <upstream>_<tool>}; no tool is dropped.
 * <p>
 * Users: the callbacks it returns belong to the chat request that asked for them. Each runs
 * with that request's Spring Security user on whichever thread Spring AI calls it, the
 * reactive threads of {@code ChatClient.stream()} included; so hand {@code ChatClient} the
 * provider, which Spring AI asks on every request, rather than an array kept from one.
 */
public final class McpxToolCallbackProvider implements ToolCallbackProvider, AutoCloseable {

	private static final Log logger = LogFactory.getLog(McpxToolCallbackProvider.class);

	private final McpClients clients;

	private final Function<String, ToolExposure> exposures;

	private final Function<String, Duration> listingBounds;

	private final McpToolFilter filter;

	private final boolean failOnUnavailableUpstream;

	private final JsonMapper json;

	private final ExecutorService listing;

	/** Carries the chat request's context (its user) to the listing threads. */
	private final UnaryOperator<Callable<List<Tool>>> listingContext = ListingContext.ofCallingThread();

	/** Upstreams whose outage was logged; an upstream leaves it when listed again. */
	private final Set<String> unavailable = ConcurrentHashMap.newKeySet();

	/** Names whose collision was logged, so that each is logged once. */
	private final Set<String> collisionsLogged = ConcurrentHashMap.newKeySet();

	/** Per upstream: the last listing and the callbacks made of it, reused while it is current. */
	private final Map<String, Built> built = new ConcurrentHashMap<>();

	McpxToolCallbackProvider(McpClients clients, Function<String, ToolExposure> exposures,
			Function<String, Duration> listingBounds, McpToolFilter filter, boolean failOnUnavailableUpstream,
			JsonMapper json) {
		this.clients = clients;
		this.exposures = exposures;
		this.listingBounds = listingBounds;
		this.filter = filter;
		this.failOnUnavailableUpstream = failOnUnavailableUpstream;
		this.json = json;
		this.listing = Executors.newCachedThreadPool(daemonThreads());
	}

	/**
	 * A provider of every tool of the given clients under its own name, with none of the
	 * {@code spring-ai.*} properties applied: for applications that build their clients
	 * themselves.
	 * @param clients the clients
	 * @return a provider; close it to stop its listing threads
	 */
	public static McpxToolCallbackProvider of(McpClients clients) {
		ToolExposure all = new ToolExposure("", Expose.ALL, true, List.of(), List.of());
		return new McpxToolCallbackProvider(clients, (name) -> all,
				(name) -> McpClientBuilder.DEFAULT_CONNECT_TIMEOUT.plus(McpClientBuilder.DEFAULT_HANDSHAKE_TIMEOUT),
				(upstream, tool) -> true, false, JsonMapper.shared());
	}

	@Override
	public ToolCallback[] getToolCallbacks() {
		// Spring AI asks on the chat request's thread; its tool calls may run on another
		// (ChatClient.stream()), so each callback handed out carries the request's user.
		CallerContext caller = CallerContext.ofCallingThread();
		Map<String, List<Tool>> toolsByUpstream = listAll();
		// what was kept of upstreams that left the live set goes with them
		this.built.keySet().retainAll(this.clients.names());
		this.unavailable.retainAll(this.clients.names());
		List<Candidate> candidates = new ArrayList<>();
		toolsByUpstream.forEach((upstream, tools) -> {
			ToolExposure exposure = this.exposures.apply(upstream);
			for (Tool tool : tools) {
				if (exposure.offers(tool) && this.filter.test(upstream, tool)) {
					candidates.add(new Candidate(upstream, tool, ToolNames.sanitize(exposure.prefix() + tool.name())));
				}
			}
		});
		return name(candidates).stream()
			.map(this::callback)
			.flatMap(Optional::stream)
			.map((callback) -> callback.forRequest(caller))
			.toArray(ToolCallback[]::new);
	}

	/**
	 * Final names: a name offered by more than one upstream becomes {@code <upstream>_<tool>}
	 * for each of them; a name still shared after that (two tools that differ only in
	 * characters the model APIs refuse) ends with a hash of what tells them apart.
	 */
	private List<Candidate> name(List<Candidate> candidates) {
		Map<String, Set<String>> upstreamsByName = new HashMap<>();
		candidates.forEach((c) -> upstreamsByName.computeIfAbsent(c.name(), (n) -> new LinkedHashSet<>())
			.add(c.upstream()));
		List<Candidate> named = new ArrayList<>();
		for (Candidate candidate : candidates) {
			Set<String> upstreams = Objects.requireNonNull(upstreamsByName.get(candidate.name()));
			if (upstreams.size() > 1) {
				warnCollision(candidate.name(), upstreams);
				named.add(candidate.rename(ToolNames.sanitize(candidate.upstream() + "_" + candidate.tool().name())));
			}
			else {
				named.add(candidate);
			}
		}
		Map<String, Integer> uses = new HashMap<>();
		named.forEach((c) -> uses.merge(c.name(), 1, Integer::sum));
		return named.stream()
			.map((c) -> (uses.getOrDefault(c.name(), 1) > 1)
					? c.rename(ToolNames.sanitizeWithHash(c.name(), c.upstream() + "/" + c.tool().name())) : c)
			.toList();
	}

	private void warnCollision(String name, Set<String> upstreams) {
		if (this.collisionsLogged.add(name)) {
			logger.warn("Upstreams " + upstreams + " each offer a tool named '" + name
					+ "'; the model gets each as <upstream>_<tool>. Set mcpx.clients.<name>.spring-ai.tool-prefix on "
					+ "one of them to choose the names yourself");
		}
	}

	/** The tool's callback; none when its upstream left the live set since it was listed. */
	private Optional<McpToolCallback> callback(Candidate candidate) {
		Built current = this.built.get(candidate.upstream());
		McpToolCallback cached = (current != null) ? current.callbacks().get(candidate.tool()) : null;
		if (cached != null && cached.getToolDefinition().name().equals(candidate.name())) {
			return Optional.of(cached);
		}
		Optional<McpClient> client = this.clients.find(candidate.upstream());
		if (client.isEmpty()) {
			return Optional.empty();
		}
		McpToolCallback callback = new McpToolCallback(client.get(), candidate.tool(), candidate.name(), this.json);
		if (current != null) {
			current.callbacks().put(candidate.tool(), callback);
		}
		return Optional.of(callback);
	}

	/**
	 * Lists every upstream's tools concurrently, waiting for each at most its bound (the
	 * connect timeout), so that an upstream that is down never holds up a chat request
	 * longer than it takes to find out.
	 */
	private Map<String, List<Tool>> listAll() {
		Map<String, Future<List<Tool>>> futures = new LinkedHashMap<>();
		for (McpClient client : this.clients) {
			futures.put(client.name(), this.listing.submit(this.listingContext.apply(client::listTools)));
		}
		Map<String, List<Tool>> tools = new LinkedHashMap<>();
		long start = System.nanoTime();
		for (Map.Entry<String, Future<List<Tool>>> entry : futures.entrySet()) {
			String upstream = entry.getKey();
			long left = this.listingBounds.apply(upstream).toNanos() - (System.nanoTime() - start);
			try {
				List<Tool> listed = entry.getValue().get(Math.max(left, 0), TimeUnit.NANOSECONDS);
				remember(upstream, listed);
				tools.put(upstream, listed);
				if (this.unavailable.remove(upstream)) {
					logger.info("MCP upstream '" + upstream + "' is available again; its tools are offered to the model");
				}
			}
			catch (ExecutionException ex) {
				unavailable(upstream, Objects.requireNonNullElse(ex.getCause(), ex));
			}
			catch (TimeoutException ex) {
				// The listing goes on and fills the catalogue for the next request.
				unavailable(upstream, new McpException(upstream, "listing its tools took longer than "
						+ this.listingBounds.apply(upstream).toMillis() + " ms", null));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while listing the tools of MCP upstream '" + upstream + "'",
						ex);
			}
		}
		return tools;
	}

	private void remember(String upstream, List<Tool> listed) {
		Built current = this.built.get(upstream);
		if (current == null || current.listing() != listed) {
			this.built.put(upstream, new Built(listed, new ConcurrentHashMap<>()));
		}
	}

	private void unavailable(String upstream, Throwable failure) {
		if (this.failOnUnavailableUpstream) {
			throw new IllegalStateException("MCP upstream '" + upstream + "' is unavailable and "
					+ "mcpx.spring-ai.fail-on-unavailable-upstream is true: " + failure.getMessage(), failure);
		}
		if (this.unavailable.add(upstream)) {
			logger.warn("MCP upstream '" + upstream + "' is unavailable; its tools are left out of the model's tools "
					+ "until it is back: " + failure.getMessage());
		}
	}

	/**
	 * Stops the listing threads; the clients belong to {@link McpClients}.
	 */
	@Override
	public void close() {
		this.listing.shutdownNow();
	}

	private static ThreadFactory daemonThreads() {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, "mcpx-spring-ai-list-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	private record Candidate(String upstream, Tool tool, String name) {

		Candidate rename(String newName) {
			return new Candidate(this.upstream, this.tool, newName);
		}

	}

	private record Built(List<Tool> listing, Map<Tool, McpToolCallback> callbacks) {
	}

}
