package dev.mcpx.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.mcpx.client.StdioCommand;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The stdio test peers: {@code src/test/node/stdio-server.mjs} (TypeScript SDK v1
 * {@code StdioServerTransport}) and the official {@code server-everything} in stdio mode,
 * as commands an mcpx client starts itself. The peer appends each start and each tool
 * execution to a log file (one JSON object per line, with the pid), so a test counts what
 * the servers saw across processes.
 */
public final class StdioPeer {

	/** The custom stdio peer script. */
	public static final String SCRIPT = "stdio-server.mjs";

	private static final JsonMapper JSON = JsonMapper.shared();

	private StdioPeer() {
	}

	/**
	 * The command that starts the custom peer.
	 * @param log where the peer appends its starts and executions
	 * @param options peer options such as {@code --banner}
	 * @return the command
	 */
	public static StdioCommand command(Path log, String... options) {
		List<String> args = new ArrayList<>();
		args.add(NodePeer.nodeDirectory().resolve(SCRIPT).toString());
		args.addAll(List.of(options));
		return new StdioCommand(node(), args, Map.of("MCPX_STDIO_LOG", log.toString()), null, true);
	}

	/**
	 * The command that starts the modern-era peer ({@code modern-stdio-server.mjs}, TypeScript
	 * SDK v2 {@code serveStdio}).
	 * @param log where the peer appends its starts and executions
	 * @return the command
	 */
	public static StdioCommand modernCommand(Path log) {
		return new StdioCommand(node(), List.of(NodePeer.nodeDirectory().resolve("modern-stdio-server.mjs").toString()),
				Map.of("MCPX_STDIO_LOG", log.toString()), null, true);
	}

	/**
	 * The command that starts the 2025-11-25 task peer ({@code stdio-tasks-server.mjs}), whose tasks are kept in a
	 * file and so outlive its process.
	 * @param log where the peer appends its starts and executions
	 * @param store the file its tasks are kept in
	 * @return the command
	 */
	public static StdioCommand tasksCommand(Path log, Path store) {
		return new StdioCommand(node(), List.of(NodePeer.nodeDirectory().resolve("stdio-tasks-server.mjs").toString()),
				Map.of("MCPX_STDIO_LOG", log.toString(), "MCPX_TASK_STORE", store.toString()), null, true);
	}

	/**
	 * The command that starts the official {@code server-everything} in stdio mode.
	 * @return the command
	 */
	public static StdioCommand everything() {
		Path script = NodePeer.nodeDirectory()
			.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
		return new StdioCommand(node(), List.of(script.toString(), "stdio"), Map.of(), null, true);
	}

	/**
	 * The {@code node} executable: the {@code mcpx.test.node} system property, else
	 * {@code node} from the {@code PATH}.
	 * @return the executable
	 */
	public static String node() {
		String override = System.getProperty("mcpx.test.node");
		return (override != null && !override.isBlank()) ? override : "node";
	}

	/**
	 * Every entry of a peer log.
	 * @param log the log file
	 * @return the entries, oldest first
	 */
	public static List<JsonNode> entries(Path log) {
		if (!Files.exists(log)) {
			return List.of();
		}
		try {
			List<JsonNode> entries = new ArrayList<>();
			for (String line : Files.readAllLines(log)) {
				if (!line.isBlank()) {
					entries.add(JSON.readTree(line));
				}
			}
			return entries;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * How many processes started.
	 * @param log the log file
	 * @return the starts
	 */
	public static long starts(Path log) {
		return entries(log).stream().filter((e) -> e.path("type").asString("").equals("start")).count();
	}

	/**
	 * How often a tool ran, across processes.
	 * @param log the log file
	 * @param tool the tool
	 * @return the executions
	 */
	public static long executions(Path log, String tool) {
		return entries(log).stream()
			.filter((e) -> e.path("type").asString("").equals("execution") && e.path("tool").asString("").equals(tool))
			.count();
	}

	/**
	 * The pids of every process that started.
	 * @param log the log file
	 * @return the pids, in start order
	 */
	public static Set<Long> pids(Path log) {
		Set<Long> pids = new LinkedHashSet<>();
		entries(log).stream()
			.filter((e) -> e.path("type").asString("").equals("start"))
			.forEach((e) -> pids.add(e.path("pid").asLong()));
		return pids;
	}

	/**
	 * The pid of the process that started last.
	 * @param log the log file
	 * @return the pid
	 */
	public static long lastPid(Path log) {
		List<Long> pids = new ArrayList<>(pids(log));
		return pids.get(pids.size() - 1);
	}

	/**
	 * Whether a process is alive.
	 * @param pid the pid
	 * @return {@code true} while it runs
	 */
	public static boolean alive(long pid) {
		Optional<ProcessHandle> handle = ProcessHandle.of(pid);
		return handle.isPresent() && handle.get().isAlive();
	}

	/**
	 * Kills a process as {@code kill -9} does, and waits for it to be gone.
	 * @param pid the pid
	 */
	public static void kill9(long pid) {
		ProcessHandle.of(pid).ifPresent((handle) -> {
			handle.destroyForcibly();
			try {
				handle.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
			}
			catch (Exception ex) {
				throw new IllegalStateException("process " + pid + " did not die", ex);
			}
		});
	}

	/**
	 * Waits until a condition holds.
	 * @param timeout the longest wait
	 * @param condition the condition
	 * @return whether it held in time
	 */
	public static boolean await(Duration timeout, java.util.function.BooleanSupplier condition) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (condition.getAsBoolean()) {
				return true;
			}
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return condition.getAsBoolean();
	}

}
