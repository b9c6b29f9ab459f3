package dev.mcpx.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;

/**
 * An MCP endpoint whose own cost is negligible: the JDK's {@link HttpServer} answering the
 * legacy Streamable HTTP transport (2025-11-25) with fixed bytes. No JSON parser: the
 * request's {@code method}, {@code id} and {@code protocolVersion} are found by a byte scan
 * (the contenders' requests are known), and responses are precomputed byte arrays with the
 * request id spliced in, so every contender gets the same JSON on the wire.
 * <ul>
 * <li>{@code initialize}: 200 {@code application/json} with a new {@code Mcp-Session-Id};</li>
 * <li>notifications (and responses): 202, no body;</li>
 * <li>{@code tools/call}: 200 {@code application/json}
 * {@code {"jsonrpc":"2.0","id":<id>,"result":{"content":[{"type":"text","text":"hello"}],"isError":false}}};</li>
 * <li>{@code tools/list}, {@code ping}: fixed results; anything else: a JSON-RPC error;</li>
 * <li>no session id: 400; an unknown or forgotten one: 404 (as the official servers do);</li>
 * <li>GET: 405 (no listening stream); DELETE: 200 and the session is forgotten.</li>
 * </ul>
 * The upstreams of {@link ManyUpstreams} (many ports, {@link #main}) also answer a 2026-07-28
 * request (its {@code MCP-Protocol-Version} header), with no session: {@code server/discover},
 * {@code tools/list} and {@code tools/call} with the same fixed results, for the modern era's
 * first call; the call-path rounds' upstream stays legacy only, so that an mcpx client in
 * {@code auto} mode there is measured in the legacy era as before.
 */
final class FixedUpstream implements Upstream {

	static final String PATH = "/mcp";

	static final String THREAD_PREFIX = "upstream-fixed-";

	private static final byte[] CALL_PREFIX = ascii("{\"jsonrpc\":\"2.0\",\"id\":");

	private static final byte[] CALL_RESULT = ascii(
			",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + TEXT + "\"}],\"isError\":false}}");

	private static final byte[] LIST_RESULT = ascii(",\"result\":{\"tools\":[{\"name\":\"" + TOOL
			+ "\",\"description\":\"Echoes its text.\",\"inputSchema\":{\"type\":\"object\",\"properties\":"
			+ "{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]},\"annotations\":{\"readOnlyHint\":true}}]}}");

	private static final byte[] EMPTY_RESULT = ascii(",\"result\":{}}");

	private static final String MODERN = "2026-07-28";

	private static final byte[] DISCOVER_RESULT = ascii(",\"result\":{\"resultType\":\"complete\","
			+ "\"supportedVersions\":[\"" + MODERN + "\"],\"capabilities\":{\"tools\":{}},\"ttlMs\":0,"
			+ "\"cacheScope\":\"public\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
			+ "{\"name\":\"fixed-upstream\",\"version\":\"1.0\"}}}}");

	private static final byte[] UNKNOWN_METHOD = ascii(",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");

	private static final byte[] SESSION_NOT_FOUND = ascii(
			"{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,\"message\":\"Session not found\"},\"id\":null}");

	private static final byte[] NO_SESSION = ascii(
			"{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"Bad Request: Mcp-Session-Id header is required\"},\"id\":null}");

	private static final byte[] METHOD_KEY = ascii("\"method\"");

	private static final byte[] ID_KEY = ascii("\"id\"");

	private static final byte[] VERSION_KEY = ascii("\"protocolVersion\"");

	private static final Set<String> VERSIONS = Set.of("2025-11-25", "2025-06-18", "2025-03-26");

	private final HttpServer server;

	private final HttpContext context;

	private final ExecutorService executor;

	private final Set<String> sessions = ConcurrentHashMap.newKeySet();

	private final AtomicInteger initializes = new AtomicInteger();

	private final LongAdder requests = new LongAdder();

	private final AtomicLong sessionCounter = new AtomicLong();

	private final AtomicInteger generation = new AtomicInteger(1);

	private final String url;

	private final boolean modern;

	private FixedUpstream(int port, int threads, boolean modern) throws IOException {
		this.modern = modern;
		// Without it the JDK server leaves Nagle on, and small writes can wait for a delayed ACK.
		System.setProperty("sun.net.httpserver.nodelay", "true");
		// Its default of 200 idle connections closes the rest of a crowd of idle clients
		// (150 SDK clients hold about 450), whose next request then finds the socket closed.
		System.setProperty("sun.net.httpserver.maxIdleConnections", "4096");
		AtomicInteger count = new AtomicInteger();
		this.executor = Executors.newFixedThreadPool(threads, (runnable) -> {
			Thread thread = new Thread(runnable, THREAD_PREFIX + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		});
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1024);
		this.context = this.server.createContext(PATH, this::handle);
		this.server.setExecutor(this.executor);
		this.server.start();
		this.url = "http://127.0.0.1:" + this.server.getAddress().getPort() + PATH;
	}

	/**
	 * Starts one on a free loopback port.
	 * @return the running upstream
	 */
	static FixedUpstream start() {
		return start(0, 4);
	}

	static FixedUpstream start(int port, int threads) {
		return start(port, threads, false);
	}

	static FixedUpstream start(int port, int threads, boolean modern) {
		try {
			return new FixedUpstream(port, threads, modern);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public String url() {
		return this.url;
	}

	@Override
	public int initializeCount() {
		return this.initializes.get();
	}

	/**
	 * Lets a filter see every exchange, before and after it is handled ({@link FirstCallTimeline}).
	 * @param filter the filter
	 */
	void observe(Filter filter) {
		this.context.getFilters().add(filter);
	}

	/**
	 * How many HTTP requests arrived so far, of any method.
	 * @return the count
	 */
	long requestCount() {
		return this.requests.sum();
	}

	@Override
	public void forgetSessions() {
		this.generation.incrementAndGet();
		this.sessions.clear();
	}

	@Override
	public String[] threadNamePrefixes() {
		// The dispatcher accepts and selects; the pool reads requests and writes responses.
		return new String[] { THREAD_PREFIX, "HTTP-Dispatcher" };
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
		try {
			this.executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void handle(HttpExchange exchange) throws IOException {
		this.requests.increment();
		try {
			switch (exchange.getRequestMethod()) {
				case "POST" -> post(exchange);
				case "DELETE" -> {
					drain(exchange.getRequestBody());
					String session = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
					boolean known = session != null && this.sessions.remove(session);
					exchange.sendResponseHeaders(known ? 200 : 404, -1);
				}
				default -> {
					drain(exchange.getRequestBody());
					exchange.getResponseHeaders().set("Allow", "POST, DELETE");
					exchange.sendResponseHeaders(405, -1);
				}
			}
		}
		finally {
			exchange.close();
		}
	}

	private void post(HttpExchange exchange) throws IOException {
		byte[] body = exchange.getRequestBody().readAllBytes();
		String method = stringValue(body, METHOD_KEY);
		Headers responseHeaders = exchange.getResponseHeaders();
		if (this.modern && MODERN.equals(exchange.getRequestHeaders().getFirst("MCP-Protocol-Version"))) {
			// 2026-07-28: no session; every request stands alone
			byte[] result = switch ((method != null) ? method : "") {
				case "server/discover" -> DISCOVER_RESULT;
				case "tools/call" -> CALL_RESULT;
				case "tools/list" -> LIST_RESULT;
				case "ping" -> EMPTY_RESULT;
				default -> UNKNOWN_METHOD;
			};
			respond(exchange, 200, reply(idToken(body), result));
			return;
		}
		if ("initialize".equals(method)) {
			this.initializes.incrementAndGet();
			String session = "s" + this.generation.get() + "-" + this.sessionCounter.incrementAndGet();
			this.sessions.add(session);
			String requested = stringValue(body, VERSION_KEY);
			String version = VERSIONS.contains(requested) ? requested : "2025-06-18";
			responseHeaders.set("Mcp-Session-Id", session);
			respond(exchange, 200, reply(idToken(body), ascii(",\"result\":{\"protocolVersion\":\"" + version
					+ "\",\"capabilities\":{\"tools\":{\"listChanged\":false}},"
					+ "\"serverInfo\":{\"name\":\"fixed-upstream\",\"version\":\"1.0\"}}}")));
			return;
		}
		String session = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
		if (session == null) {
			respond(exchange, 400, NO_SESSION);
			return;
		}
		if (!this.sessions.contains(session)) {
			respond(exchange, 404, SESSION_NOT_FOUND);
			return;
		}
		if (method == null || method.startsWith("notifications/")) {
			exchange.sendResponseHeaders(202, -1); // a notification, or a response to a server request
			return;
		}
		byte[] id = idToken(body);
		byte[] result = switch (method) {
			case "tools/call" -> CALL_RESULT;
			case "tools/list" -> LIST_RESULT;
			case "ping" -> EMPTY_RESULT;
			default -> UNKNOWN_METHOD;
		};
		respond(exchange, 200, reply(id, result));
	}

	private static byte[] reply(byte[] id, byte[] rest) {
		byte[] out = new byte[CALL_PREFIX.length + id.length + rest.length];
		System.arraycopy(CALL_PREFIX, 0, out, 0, CALL_PREFIX.length);
		System.arraycopy(id, 0, out, CALL_PREFIX.length, id.length);
		System.arraycopy(rest, 0, out, CALL_PREFIX.length + id.length, rest.length);
		return out;
	}

	private static void respond(HttpExchange exchange, int status, byte[] json) throws IOException {
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, json.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(json);
		}
	}

	private static void drain(InputStream in) throws IOException {
		in.readAllBytes();
	}

	/** The raw JSON token after the first {@code "id":}: a number or a quoted string. */
	private static byte[] idToken(byte[] body) {
		int at = valueStart(body, ID_KEY);
		if (at < 0) {
			return ascii("null");
		}
		int end = at;
		if (body[at] == '"') {
			end = at + 1;
			while (end < body.length && body[end] != '"') {
				end += (body[end] == '\\') ? 2 : 1;
			}
			end++;
		}
		else {
			while (end < body.length && body[end] != ',' && body[end] != '}' && body[end] != ' ') {
				end++;
			}
		}
		byte[] token = new byte[end - at];
		System.arraycopy(body, at, token, 0, token.length);
		return token;
	}

	/** The string value after the first occurrence of a key, or {@code null}. */
	private static @Nullable String stringValue(byte[] body, byte[] key) {
		int at = valueStart(body, key);
		if (at < 0 || body[at] != '"') {
			return null;
		}
		int end = at + 1;
		while (end < body.length && body[end] != '"') {
			end++;
		}
		return new String(body, at + 1, end - at - 1, StandardCharsets.US_ASCII);
	}

	private static int valueStart(byte[] body, byte[] key) {
		outer: for (int i = 0; i <= body.length - key.length; i++) {
			for (int j = 0; j < key.length; j++) {
				if (body[i + j] != key[j]) {
					continue outer;
				}
			}
			int at = i + key.length;
			while (at < body.length && (body[at] == ' ' || body[at] == ':')) {
				at++;
			}
			return (at < body.length) ? at : -1;
		}
		return -1;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

	/**
	 * Runs the upstream alone, for measurements that must not count its heap: prints
	 * {@code PORT <n>} and serves until its standard input closes.
	 * @param args none
	 * @throws IOException never in practice
	 */
	public static void main(String[] args) throws IOException {
		System.setProperty("sun.net.httpserver.idleInterval", "3600"); // keep idle clients' connections
		if (args.length > 0) {
			// many upstreams, one port each (ManyUpstreams): prints PORTS <n> <n> ...
			List<FixedUpstream> upstreams = new ArrayList<>();
			StringBuilder ports = new StringBuilder("PORTS");
			for (int i = 0; i < Integer.parseInt(args[0]); i++) {
				FixedUpstream upstream = start(0, 1, true);
				upstreams.add(upstream);
				ports.append(' ').append(upstream.server.getAddress().getPort());
			}
			System.out.println(ports);
			System.out.flush();
			while (System.in.read() >= 0) {
				// Serve until the parent goes away.
			}
			upstreams.forEach(FixedUpstream::close);
			return;
		}
		FixedUpstream upstream = start(0, 4);
		System.out.println("PORT " + upstream.server.getAddress().getPort());
		System.out.flush();
		while (System.in.read() >= 0) {
			// Serve until the parent goes away.
		}
		upstream.close();
	}

}
