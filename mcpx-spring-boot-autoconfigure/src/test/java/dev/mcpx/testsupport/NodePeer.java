package dev.mcpx.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Node.js MCP server started as a test peer, from the scripts in {@code src/test/node}
 * ({@code legacy-server.mjs}, {@code modern-server.mjs}) or the official
 * {@code @modelcontextprotocol/server-everything}.
 * <p>
 * The {@code node_modules} of {@code src/test/node} are installed by the Maven build
 * ({@code exec-maven-plugin} at {@code generate-test-resources}); run
 * {@code npm ci} there by hand when running tests from an IDE without Maven.
 * <p>
 * Typical use:
 * <pre>{@code
 * try (NodePeer peer = NodePeer.start("legacy-server.mjs")) {
 *     // point the client at peer.url()
 *     peer.forgetSessions();
 *     assertThat(peer.counts().path("initialize").asInt()).isEqualTo(2);
 * }
 * }</pre>
 * The Node process exits by itself when its standard input closes, so a JVM that dies
 * without calling {@link #close()} does not leak it.
 * <p>
 * System properties: {@code mcpx.test.node} overrides the {@code node} executable,
 * {@code mcpx.test.node.dir} overrides the location of the {@code src/test/node} directory.
 */
public final class NodePeer implements AutoCloseable {

	/** The legacy-era (2025-11-25, sessions) peer script. */
	public static final String LEGACY = "legacy-server.mjs";

	/** The modern-era (2026-07-28, sessionless) peer script. */
	public static final String MODERN = "modern-server.mjs";

	/** The legacy peer of the client protocol features: server requests, progress, logs, subscriptions. */
	public static final String PROTOCOL = "protocol-server.mjs";

	/**
	 * The 2026-07-28 peer of the tasks extension ({@code io.modelcontextprotocol/tasks}), judged by
	 * the conformance suite; see {@code docs/test-peers.md}.
	 */
	public static final String TASKS = "tasks-server.mjs";

	/**
	 * The 2025-11-25 peer of the experimental tasks, whose tasks span sessions; see
	 * {@code docs/test-peers.md}.
	 */
	public static final String LEGACY_TASKS = "legacy-tasks-server.mjs";

	/**
	 * The environment variable naming the file the task peers keep their tasks and executions in,
	 * so that they survive {@link #restart()}.
	 */
	public static final String TASK_STORE = "MCPX_TASK_STORE";

	private static final String EVERYTHING_SCRIPT = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(30);

	private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

	private static final int LOG_LIMIT = 256 * 1024;

	private static final int LOG_TAIL = 4 * 1024;

	private static final Pattern LISTENING = Pattern.compile("^LISTENING (\\d+)\\s*$");

	private static final JsonMapper JSON = JsonMapper.shared();

	private final String name;

	private final Process process;

	private final OutputStream stdin;

	private final StringBuilder log;

	private final boolean admin;

	private final HttpClient http;

	private volatile int port;

	private volatile boolean closed;

	/** How the process was started, for {@link #restart()}; {@code null} for server-everything. */
	private List<String> startArgs;

	private Map<String, String> startEnvironment = Map.of();

	private NodePeer(String name, Process process, StringBuilder log, boolean admin) {
		this.name = name;
		this.process = process;
		this.stdin = process.getOutputStream();
		this.log = log;
		this.admin = admin;
		this.http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(ADMIN_TIMEOUT)
			.build();
	}

	/**
	 * Starts {@code node <script> 0 <args...>} in the {@code src/test/node} directory and waits
	 * (at most 30 seconds) for the {@code LISTENING <port>} line the script prints.
	 * @param script the script, relative to {@code src/test/node}, for example
	 * {@link #LEGACY} or {@link #MODERN}
	 * @param args further arguments, for example {@code --json}
	 * @return the running peer
	 * @throws IllegalStateException if the process cannot be started or does not report its
	 * port in time; the message carries the tail of the process output
	 */
	public static NodePeer start(String script, String... args) {
		return start(script, 0, Map.of(), args);
	}

	/**
	 * Starts {@code node <script> <port> <args...>} like {@link #start(String, String...)}, on a
	 * given port and with extra environment variables (for example
	 * {@code MCPX_PEER_EVENT_LOG=<file>}, an append-only log of executions and initializes
	 * that survives restarts).
	 * @param script the script, relative to {@code src/test/node}
	 * @param port the port to listen on, {@code 0} for a free one
	 * @param environment extra environment variables of the process
	 * @param args further arguments, for example {@code --json}
	 * @return the running peer
	 * @throws IllegalStateException if the process cannot be started or does not report its
	 * port in time
	 */
	public static NodePeer start(String script, int port, Map<String, String> environment, String... args) {
		Path dir = nodeDirectory();
		List<String> command = new ArrayList<>();
		command.add(nodeExecutable(dir));
		command.add(script);
		command.add(Integer.toString(port));
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
		builder.environment().putAll(environment);
		StringBuilder log = new StringBuilder();
		CompletableFuture<Integer> listening = new CompletableFuture<>();
		NodePeer peer = new NodePeer(script, launch(builder, command), log, true);
		peer.startArgs = List.of(args);
		peer.startEnvironment = Map.copyOf(environment);
		peer.drainOutput(listening);
		try {
			peer.port = listening.get(STARTUP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
			return peer;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw peer.startupFailure("interrupted while waiting for " + script, ex);
		}
		catch (ExecutionException ex) {
			throw peer.startupFailure(script + " ended before printing LISTENING", ex.getCause());
		}
		catch (TimeoutException ex) {
			throw peer.startupFailure(script + " did not print LISTENING within " + STARTUP_TIMEOUT.toSeconds() + "s",
					ex);
		}
	}

	/**
	 * Starts the official {@code @modelcontextprotocol/server-everything} in its
	 * {@code streamableHttp} mode on a free port and waits (at most 30 seconds) until that port
	 * accepts connections. It serves {@code /mcp} with sessions, but answers an unknown session
	 * with {@code 400} rather than {@code 404}. The admin methods of the returned peer throw
	 * {@link UnsupportedOperationException}.
	 * @return the running peer
	 * @throws IllegalStateException if the server does not come up in time
	 */
	public static NodePeer startEverything() {
		return startEverything(freePort());
	}

	/**
	 * Starts {@code server-everything} on the given port, for example the port of one that
	 * was just closed, to restart it in place with every session forgotten.
	 * @param port the port to listen on
	 * @return the running peer
	 * @throws IllegalStateException if the server does not come up in time
	 */
	public static NodePeer startEverything(int port) {
		Path dir = nodeDirectory();
		// the preloaded module makes it exit when its stdin closes, like the mcpx peers
		List<String> command = List.of(nodeExecutable(dir), "--import", "./exit-with-stdin.mjs", EVERYTHING_SCRIPT,
				"streamableHttp");
		ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
		builder.environment().put("PORT", Integer.toString(port));
		StringBuilder log = new StringBuilder();
		NodePeer peer = new NodePeer("server-everything", launch(builder, command), log, false);
		peer.port = port;
		peer.drainOutput(new CompletableFuture<>());
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (true) {
			if (accepts(port)) {
				return peer;
			}
			if (!peer.process.isAlive()) {
				throw peer.startupFailure("server-everything exited", null);
			}
			if (System.nanoTime() > deadline) {
				throw peer.startupFailure(
						"server-everything did not accept connections on port " + port + " within "
								+ STARTUP_TIMEOUT.toSeconds() + "s", null);
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw peer.startupFailure("interrupted while waiting for server-everything", ex);
			}
		}
	}

	/**
	 * Returns the {@code src/test/node} directory: the {@code mcpx.test.node.dir} system property
	 * if set, otherwise resolved against the working directory, which is the module directory
	 * under Maven Surefire and may be the repository root in an IDE.
	 * @return the absolute directory holding the peer scripts and their {@code node_modules}
	 * @throws IllegalStateException if no such directory is found
	 */
	public static Path nodeDirectory() {
		String override = System.getProperty("mcpx.test.node.dir");
		List<Path> candidates = new ArrayList<>();
		if (override != null && !override.isBlank()) {
			candidates.add(Path.of(override));
		}
		candidates.add(Path.of("src", "test", "node"));
		candidates.add(Path.of("mcpx-spring-boot-autoconfigure", "src", "test", "node"));
		candidates.add(Path.of("..", "mcpx-spring-boot-autoconfigure", "src", "test", "node"));
		for (Path candidate : candidates) {
			if (Files.isRegularFile(candidate.resolve(LEGACY))) {
				return candidate.toAbsolutePath().normalize();
			}
		}
		throw new IllegalStateException("Cannot find the Node test peers (src/test/node/" + LEGACY + ") from "
				+ Path.of("").toAbsolutePath() + "; tried " + candidates);
	}

	/**
	 * Returns the MCP endpoint.
	 * @return {@code http://127.0.0.1:<port>/mcp}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.port + "/mcp";
	}

	/**
	 * Returns the port the peer listens on (on 127.0.0.1).
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Returns what the peer has seen since it started or was last {@linkplain #reset() reset}:
	 * {@code {"initialize": n, "requests": {"<method>": n}, "executions": {"<tool>": n},
	 * "ids": {"<tool>": [ids]}, "sessionsLive": n, "deletes": n, "gets": n, "resumes": n,
	 * "notFound": n, "cuts": n}}. {@code requests} counts every received JSON-RPC request and
	 * notification by method (also those then rejected with 404), {@code executions} counts
	 * tool bodies that ran.
	 * @return the counters as JSON
	 */
	public JsonNode counts() {
		return JSON.readTree(admin("GET", "counts", null));
	}

	/**
	 * Zeroes all counters and disarms pending {@linkplain #cut(String, int) cuts}.
	 */
	public void reset() {
		admin("POST", "reset", JSON.createObjectNode());
	}

	/**
	 * Drops every session, as a restarted server would: from now on the old session ids are
	 * answered with {@code 404} and {@code {"jsonrpc":"2.0","error":{"code":-32001,
	 * "message":"Session not found"},"id":null}}. Open streams of those sessions (GET streams,
	 * unfinished POST responses) end cleanly, without a response. Only the legacy peer has
	 * sessions; the modern peer answers with an error.
	 */
	public void forgetSessions() {
		forgetSessions(false);
	}

	/**
	 * Drops every session like {@link #forgetSessions()}; with {@code abortStreams} the
	 * connections of open streams are destroyed instead of ended cleanly, as when the server
	 * process dies.
	 * @param abortStreams whether to destroy the connections of open streams
	 */
	public void forgetSessions(boolean abortStreams) {
		ObjectNode body = JSON.createObjectNode();
		body.put("abortStreams", abortStreams);
		admin("POST", "forget", body);
	}

	/**
	 * Switches the legacy peer into (or out of) a mode where every request carrying an
	 * {@code Mcp-Session-Id} other than {@code initialize} is answered with the 404
	 * "Session not found" error, and that session is dropped. {@code initialize} keeps working.
	 * @param expire whether sessions expire immediately
	 */
	public void expireEverySession(boolean expire) {
		ObjectNode body = JSON.createObjectNode();
		body.put("expireEverySession", expire);
		admin("POST", "mode", body);
	}

	/**
	 * Arms a cut: the next {@code times} calls of {@code tool} run their body (and are counted
	 * as executions), then the connection is closed before any byte of the HTTP response is
	 * sent, so the client sees an end of stream where the status line should be.
	 * @param tool the tool name
	 * @param times how many calls to cut; {@code 0} disarms
	 */
	public void cut(String tool, int times) {
		cut(tool, times, false);
	}

	/**
	 * Arms a cut like {@link #cut(String, int)}; with {@code afterPriming} the status line,
	 * headers and whatever the server sends ahead of the result (on the legacy SSE path with
	 * protocol 2025-11-25 the priming event {@code id: <x>} with empty data) reach the client
	 * before the connection is closed. On the legacy peer the lost response is then stored in the
	 * session's event store and can be fetched with {@code GET} and {@code Last-Event-ID}.
	 * @param tool the tool name
	 * @param times how many calls to cut; {@code 0} disarms
	 * @param afterPriming whether to let the response start before cutting it
	 */
	public void cut(String tool, int times, boolean afterPriming) {
		ObjectNode body = JSON.createObjectNode();
		body.put("tool", tool);
		body.put("times", times);
		body.put("afterPriming", afterPriming);
		admin("POST", "cut", body);
	}

	/**
	 * Makes every live session announce a list change ({@code notifications/<kind>/list_changed}),
	 * delivered on the session's GET stream when the client keeps one open.
	 * @param kind {@code tools}, {@code prompts} or {@code resources}
	 * @return how many sessions announced it
	 */
	public int announceListChanged(String kind) {
		ObjectNode body = JSON.createObjectNode();
		body.put("kind", kind);
		return JSON.readTree(admin("POST", "changed", body)).path("notified").asInt();
	}

	/**
	 * Adds a tool at runtime (legacy peer only): every live session registers it, which
	 * announces {@code notifications/tools/list_changed}, and every new session offers it. The
	 * tool takes no arguments and answers {@code "<name> ran"}.
	 * @param name the new tool's name
	 */
	public void addTool(String name) {
		ObjectNode body = JSON.createObjectNode();
		body.put("name", name);
		admin("POST", "add-tool", body);
	}

	/**
	 * Returns every tool body that ran since the peer started or was last
	 * {@linkplain #reset() reset}, with its arguments, oldest first (the peer keeps the last
	 * 100,000): {@code [{"tool": "<name>", "args": {...}}, ...]}.
	 * @return the executions as a JSON array
	 */
	public JsonNode executions() {
		return JSON.readTree(admin("GET", "executions", null)).path("executions");
	}

	/**
	 * Returns how many connections that carried an {@code /mcp} request are still open on the
	 * peer's side (admin requests never count).
	 * @return the number of open MCP connections
	 */
	public int openMcpConnections() {
		return JSON.readTree(admin("GET", "connections", null)).path("open").asInt();
	}

	/**
	 * Restarts the process in place, as a crashed and restarted server: stops this process
	 * (its connections break, its sessions, counters and event stores are gone) and starts
	 * the same script with the same arguments and environment on the same port. This peer is
	 * closed afterwards; use the returned one.
	 * @return the new peer, listening on the same port
	 * @throws IllegalStateException if the new process does not come up
	 */
	public NodePeer restart() {
		if (this.startArgs == null) {
			throw new UnsupportedOperationException(this.name + " cannot be restarted; use startEverything(port)");
		}
		int samePort = this.port;
		close();
		IllegalStateException failure = null;
		for (int attempt = 0; attempt < 5; attempt++) {
			try {
				return start(this.name, samePort, this.startEnvironment, this.startArgs.toArray(String[]::new));
			}
			catch (IllegalStateException ex) {
				// the port may still be held for a moment by the process that just exited
				failure = ex;
				try {
					Thread.sleep(200);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw ex;
				}
			}
		}
		throw failure;
	}

	/**
	 * Returns everything the process printed so far (stdout and stderr, merged; capped).
	 * @return the output of the process
	 */
	public String output() {
		synchronized (this.log) {
			return this.log.toString();
		}
	}

	/**
	 * Stops the process and its descendants and waits for them to exit: closes its standard
	 * input, asks it to terminate, and kills it if it is still alive after five seconds.
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			this.stdin.close();
		}
		catch (IOException ex) {
			// the process may be gone already
		}
		List<ProcessHandle> descendants = this.process.descendants().toList();
		descendants.forEach(ProcessHandle::destroy);
		this.process.destroy();
		if (!waitFor(this.process.toHandle(), Duration.ofSeconds(5))) {
			this.process.destroyForcibly();
			waitFor(this.process.toHandle(), Duration.ofSeconds(5));
		}
		for (ProcessHandle descendant : descendants) {
			if (!waitFor(descendant, Duration.ofSeconds(2))) {
				descendant.destroyForcibly();
				waitFor(descendant, Duration.ofSeconds(2));
			}
		}
	}

	@Override
	public String toString() {
		return "NodePeer[" + this.name + " at " + url() + "]";
	}

	/**
	 * Calls an admin operation of a peer script that has its own (for example
	 * {@link #PROTOCOL}'s {@code GET /admin/protocol}).
	 * @param method {@code GET} or {@code POST}
	 * @param operation the path below {@code /admin/}
	 * @return the answer as JSON
	 */
	public JsonNode admin(String method, String operation) {
		return JSON.readTree(admin(method, operation, method.equals("POST") ? JSON.createObjectNode() : null));
	}

	/**
	 * Posts a JSON body to an admin operation of a peer script (for example the task peers'
	 * {@code POST /admin/cut-request}).
	 * @param operation the path below {@code /admin/}
	 * @param body the JSON body
	 * @return the answer as JSON
	 */
	public JsonNode admin(String operation, JsonNode body) {
		return JSON.readTree(admin("POST", operation, body));
	}

	private String admin(String method, String operation, JsonNode body) {
		if (!this.admin) {
			throw new UnsupportedOperationException(this.name + " has no admin endpoints");
		}
		HttpRequest.Builder request = HttpRequest.newBuilder(
				URI.create("http://127.0.0.1:" + this.port + "/admin/" + operation))
			.timeout(ADMIN_TIMEOUT);
		if (body != null) {
			request.header("Content-Type", "application/json")
				.method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
		}
		else {
			request.method(method, HttpRequest.BodyPublishers.noBody());
		}
		HttpResponse<String> response;
		try {
			response = this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("admin " + operation + " failed on " + this + tail(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted during admin " + operation, ex);
		}
		if (response.statusCode() / 100 != 2) {
			throw new IllegalStateException("admin " + operation + " on " + this + " answered "
					+ response.statusCode() + ": " + response.body());
		}
		return response.body();
	}

	private void drainOutput(CompletableFuture<Integer> listening) {
		Thread reader = new Thread(() -> {
			try (BufferedReader lines = new BufferedReader(
					new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = lines.readLine()) != null) {
					append(line);
					Matcher matcher = LISTENING.matcher(line);
					if (!listening.isDone() && matcher.matches()) {
						listening.complete(Integer.parseInt(matcher.group(1)));
					}
				}
			}
			catch (IOException ex) {
				append("[output read failed: " + ex + "]");
			}
			listening.completeExceptionally(new IllegalStateException("output ended"));
		}, "node-peer-" + this.name);
		reader.setDaemon(true);
		reader.start();
	}

	private void append(String line) {
		synchronized (this.log) {
			if (this.log.length() > LOG_LIMIT) {
				this.log.delete(0, this.log.length() - LOG_LIMIT / 2);
			}
			this.log.append(line).append('\n');
		}
	}

	private String tail() {
		String output = output();
		String tail = (output.length() > LOG_TAIL) ? "..." + output.substring(output.length() - LOG_TAIL) : output;
		return "\n--- output of " + this.name + " ---\n" + tail;
	}

	private IllegalStateException startupFailure(String message, Throwable cause) {
		if (!this.process.isAlive()) {
			message += " (exit code " + this.process.exitValue() + ")";
		}
		close();
		return new IllegalStateException(message + tail(), cause);
	}

	private static Process launch(ProcessBuilder builder, List<String> command) {
		try {
			return builder.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + command + " in " + builder.directory()
					+ " (is Node.js installed? set -Dmcpx.test.node=/path/to/node)", ex);
		}
	}

	private static String nodeExecutable(Path dir) {
		String override = System.getProperty("mcpx.test.node");
		if (override != null && !override.isBlank()) {
			return override;
		}
		String path = System.getenv().getOrDefault("PATH", "");
		for (String entry : path.split(java.io.File.pathSeparator)) {
			if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, "node"))) {
				return "node";
			}
		}
		// the npm package "node" ships a Node 22 binary with the test dependencies
		Path bundled = dir.resolve(Path.of("node_modules", ".bin", "node"));
		return Files.isExecutable(bundled) ? bundled.toString() : "node";
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot find a free port", ex);
		}
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static boolean waitFor(ProcessHandle handle, Duration timeout) {
		try {
			handle.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return !handle.isAlive();
		}
		catch (ExecutionException | TimeoutException ex) {
			return !handle.isAlive();
		}
	}

}
