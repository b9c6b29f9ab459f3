package dev.mcpx.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring AI 2.0.1's MCP server ({@code spring-ai-starter-mcp-server-webmvc}, on the MCP Java
 * SDK 2.0.0) as a test peer: the application of the module {@code mcpx-test-springai-server},
 * started with {@code java -jar} in a process of its own, since this module's test class path
 * holds the Java SDK 2.1.0 for the in-JVM peer ({@link JavaSdkServer}). The reactor packages
 * that module before this one's tests run ({@code ./mvnw verify}); when running a test alone,
 * package it first: {@code ./mvnw -pl mcpx-test-springai-server package}.
 * <p>
 * Its tools, declared with Spring AI's {@code @McpTool}: {@code echo} (read-only),
 * {@code set_value} (idempotent), {@code delete_item} (destructive), and
 * {@code echo_after_ping} (read-only; it pings the client first, so its answer is the second
 * event of its stream; with sessions only, see {@link #tools()}). What the server saw (every JSON-RPC message posted,
 * every GET, every tool execution, every start) is appended to an event
 * log file that outlives the process, so counts hold across restarts and halts; the counting
 * methods read what was written since the last {@link #reset()}.
 * <p>
 * Starts are slow (seconds, more on a loaded machine), so tests share one peer per mode
 * ({@link #shared(Mode)}) and restart it rarely. When the module's build left a class-data
 * sharing archive ({@code target/cds/app.jsa}), the peer starts from the unpacked jar with it.
 * The process ends by itself when its standard input closes, so a JVM that dies without
 * closing it does not leak it. Its output goes to {@code target/springai-peer-<mode>.log}.
 * <p>
 * System property {@code mcpx.test.springai.dir} overrides the location of the module's
 * {@code target} directory.
 */
public final class SpringAiServerPeer implements AutoCloseable {

	/** Spring AI's {@code spring.ai.mcp.server.protocol}. */
	public enum Mode {

		/** Streamable HTTP with sessions. */
		STREAMABLE,

		/** Streamable HTTP without sessions: every request stands alone. */
		STATELESS

	}

	/** The exit status of a process halted on purpose in a tool call ({@link #haltOnNextCallOf}). */
	public static final int HALT_STATUS = 86;

	/** The flags the module's build trained the archive with; a JVM given others may refuse it. */
	private static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

	/** A cold start takes seconds; on a machine shared by many builds, minutes are possible. */
	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(180);

	private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);

	private static final int LOG_TAIL = 4 * 1024;

	private static final String JAR = "mcpx-test-springai-server.jar";

	private static final JsonMapper JSON = JsonMapper.shared();

	private static final Map<Mode, SpringAiServerPeer> SHARED = new EnumMap<>(Mode.class);

	private final Mode mode;

	private final int port;

	private final Path events;

	private final Path output;

	private final HttpClient http = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(ADMIN_TIMEOUT)
		.build();

	private volatile Process process;

	private volatile OutputStream stdin;

	/** Lines of the event log before the last {@link #reset()}. */
	private volatile int offset;

	private volatile boolean closed;

	private SpringAiServerPeer(Mode mode, int port, Path events, Path output) {
		this.mode = mode;
		this.port = port;
		this.events = events;
		this.output = output;
	}

	/**
	 * Returns the peer of this mode that the tests of this JVM share, starting it the first
	 * time; it is stopped when the JVM exits. A test that restarts it leaves it running.
	 * @param mode the server's protocol mode
	 * @return the running peer
	 */
	public static synchronized SpringAiServerPeer shared(Mode mode) {
		SpringAiServerPeer peer = SHARED.get(mode);
		if (peer == null || peer.closed) {
			peer = start(mode);
			SHARED.put(mode, peer);
			Runtime.getRuntime().addShutdownHook(new Thread(peer::close, "springai-peer-stop-" + mode));
		}
		else if (!peer.process.isAlive()) {
			peer.restart();
		}
		return peer;
	}

	/**
	 * Starts a peer of its own on a free port, with an empty event log.
	 * @param mode the server's protocol mode
	 * @return the running peer; close it when done
	 * @throws IllegalStateException if the server's jar is missing or it does not come up
	 */
	public static SpringAiServerPeer start(Mode mode) {
		Path target = targetDirectory();
		String name = "springai-peer-" + mode.name().toLowerCase();
		Path events = target.resolve(name + "-events.jsonl");
		Path output = target.resolve(name + ".log");
		try {
			Files.deleteIfExists(events);
			Files.deleteIfExists(output);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		SpringAiServerPeer peer = new SpringAiServerPeer(mode, freePort(), events, output);
		peer.launch(target);
		return peer;
	}

	/**
	 * Returns the MCP endpoint.
	 * @return {@code http://127.0.0.1:<port>/mcp}
	 */
	public String url() {
		return "http://127.0.0.1:" + this.port + "/mcp";
	}

	/**
	 * Returns the port, the same across restarts.
	 * @return the port on 127.0.0.1
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Returns the server's protocol mode.
	 * @return the mode
	 */
	public Mode mode() {
		return this.mode;
	}

	/**
	 * Returns the tools the server offers in its mode: Spring AI leaves out of a stateless
	 * server every tool that takes a request context ({@code echo_after_ping}), with a warning
	 * ("Stateless servers doesn't support bidirectional parameters").
	 * @return the tool names
	 */
	public List<String> tools() {
		return (this.mode == Mode.STREAMABLE) ? List.of("echo", "set_value", "delete_item", "echo_after_ping")
				: List.of("echo", "set_value", "delete_item");
	}

	/**
	 * Counts from now on: the counting methods read only what the server records after this.
	 */
	public void reset() {
		this.offset = lines().size();
	}

	/**
	 * Returns how many JSON-RPC messages with this method were posted since the last
	 * {@link #reset()}, including those the server then refused.
	 * @param method the method, for example {@code initialize}
	 * @return the count
	 */
	public int requests(String method) {
		return count((line) -> "request".equals(line.path("kind").asString())
				&& method.equals(line.path("method").asString()));
	}

	/**
	 * Returns how many times the tool's body ran since the last {@link #reset()}, across
	 * restarts and halts.
	 * @param tool the tool name
	 * @return the count
	 */
	public int executions(String tool) {
		return count((line) -> "execution".equals(line.path("kind").asString())
				&& tool.equals(line.path("tool").asString()));
	}

	/**
	 * Returns how many GET requests carrying {@code Last-Event-ID} (resumptions of a broken
	 * stream, 2025-11-25 basic/transports §Resumability and Redelivery) the server received
	 * since the last {@link #reset()}.
	 * @return the count
	 */
	public int resumptions() {
		return count((line) -> "get".equals(line.path("kind").asString()) && line.path("resume").asBoolean());
	}

	/**
	 * Returns how many times a server process became ready since the last {@link #reset()}.
	 * @return the count
	 */
	public int starts() {
		return count((line) -> "start".equals(line.path("kind").asString()));
	}

	/**
	 * Makes the next call of the tool end the server process ({@code Runtime.halt}) right
	 * after its execution is recorded, before any answer: a crash in the middle of a call.
	 * {@link #restart()} brings it back.
	 * @param tool the tool name
	 */
	public void haltOnNextCallOf(String tool) {
		admin("POST", "halt?tool=" + tool);
	}

	/**
	 * Waits until the process has ended, as after a halt.
	 * @return the exit status
	 */
	public int awaitExit() {
		try {
			return this.process.onExit().get(30, TimeUnit.SECONDS).exitValue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for " + this + " to exit", ex);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException(this + " did not exit" + tail(), ex);
		}
	}

	/**
	 * Restarts the server in place, as a crashed and restarted server: kills the process if it
	 * still runs (its connections break, every session is forgotten) and starts it again on
	 * the same port, with the same event log.
	 * @throws IllegalStateException if it does not come up
	 */
	public synchronized void restart() {
		stop(true);
		launch(targetDirectory());
	}

	/**
	 * Returns the tail of what the process printed (its log file).
	 * @return the last few kilobytes of its output
	 */
	public String output() {
		try {
			String text = Files.exists(this.output) ? Files.readString(this.output, StandardCharsets.UTF_8) : "";
			return (text.length() > LOG_TAIL) ? "..." + text.substring(text.length() - LOG_TAIL) : text;
		}
		catch (IOException ex) {
			return "[cannot read " + this.output + ": " + ex + "]";
		}
	}

	/**
	 * Stops the process.
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		stop(false);
	}

	@Override
	public String toString() {
		return "SpringAiServerPeer[" + this.mode + " at " + url() + "]";
	}

	private void launch(Path target) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(JVM_FLAGS);
		Path archive = target.resolve("cds").resolve("app.jsa");
		Path unpacked = target.resolve("cds").resolve(JAR);
		if (Files.isRegularFile(archive) && Files.isRegularFile(unpacked)) {
			command.add("-XX:SharedArchiveFile=" + archive);
			command.add("-Xlog:cds=off");
			command.add("-jar");
			command.add(unpacked.toString());
		}
		else {
			command.add("-jar");
			command.add(target.resolve(JAR).toString());
		}
		command.add("--server.port=" + this.port);
		command.add("--spring.ai.mcp.server.protocol=" + this.mode.name());
		command.add("--mcpx.peer.event-log=" + this.events);
		command.add("--mcpx.peer.exit-with-stdin=true");
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.appendTo(this.output.toFile()));
		try {
			this.process = builder.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start " + command, ex);
		}
		this.stdin = this.process.getOutputStream();
		awaitReady();
	}

	private void awaitReady() {
		long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
		while (true) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException(this + " exited with " + this.process.exitValue()
						+ " before it was ready" + tail());
			}
			if (ready()) {
				return;
			}
			if (System.nanoTime() > deadline) {
				stop(true);
				throw new IllegalStateException(
						this + " was not ready within " + STARTUP_TIMEOUT.toSeconds() + "s" + tail());
			}
			try {
				Thread.sleep(100);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				stop(true);
				throw new IllegalStateException("interrupted while starting " + this, ex);
			}
		}
	}

	private boolean ready() {
		HttpRequest request = HttpRequest.newBuilder(URI.create(adminUrl("ready")))
			.timeout(Duration.ofSeconds(2))
			.GET()
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private void stop(boolean kill) {
		Process running = this.process;
		if (running == null || !running.isAlive()) {
			return;
		}
		try {
			this.stdin.close();
		}
		catch (IOException ex) {
			// the process may be gone already
		}
		if (kill) {
			running.destroyForcibly();
		}
		else {
			running.destroy();
		}
		try {
			if (!running.waitFor(10, TimeUnit.SECONDS)) {
				running.destroyForcibly();
				running.waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void admin(String method, String operation) {
		HttpRequest request = HttpRequest.newBuilder(URI.create(adminUrl(operation)))
			.timeout(ADMIN_TIMEOUT)
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
		try {
			HttpResponse<String> response = this.http.send(request, HttpResponse.BodyHandlers.ofString());
			if (response.statusCode() != 200) {
				throw new IllegalStateException("admin " + operation + " on " + this + " answered "
						+ response.statusCode() + ": " + response.body());
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("admin " + operation + " failed on " + this + tail(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted during admin " + operation, ex);
		}
	}

	private String adminUrl(String operation) {
		return "http://127.0.0.1:" + this.port + "/admin/" + operation;
	}

	private int count(Predicate<JsonNode> matching) {
		List<String> lines = lines();
		int count = 0;
		for (String line : lines.subList(Math.min(this.offset, lines.size()), lines.size())) {
			if (!line.isBlank() && matching.test(JSON.readTree(line))) {
				count++;
			}
		}
		return count;
	}

	private List<String> lines() {
		try {
			String content = Files.exists(this.events) ? Files.readString(this.events, StandardCharsets.UTF_8) : "";
			// a line being written has no newline yet: it is left for the next read
			int complete = content.lastIndexOf('\n') + 1;
			return content.substring(0, complete).lines().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + this.events, ex);
		}
	}

	private String tail() {
		return "\n--- output of " + this + " (" + this.output + ") ---\n" + output();
	}

	private static Path targetDirectory() {
		String override = System.getProperty("mcpx.test.springai.dir");
		List<Path> candidates = new ArrayList<>();
		if (override != null && !override.isBlank()) {
			candidates.add(Path.of(override));
		}
		// the working directory is the module under Surefire, perhaps the repository root in an IDE
		candidates.add(Path.of("..", "mcpx-test-springai-server", "target"));
		candidates.add(Path.of("mcpx-test-springai-server", "target"));
		for (Path candidate : candidates) {
			if (Files.isRegularFile(candidate.resolve(JAR))) {
				return candidate.toAbsolutePath().normalize();
			}
		}
		throw new IllegalStateException("Cannot find the Spring AI server peer (" + JAR + ") from "
				+ Path.of("").toAbsolutePath() + "; tried " + candidates
				+ ". Package it first: ./mvnw -pl mcpx-test-springai-server package");
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

}
