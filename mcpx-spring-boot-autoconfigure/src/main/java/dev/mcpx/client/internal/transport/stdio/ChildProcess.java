package dev.mcpx.client.internal.transport.stdio;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;


/**
 * One started server process: its stdin to write to, its stdout to read from, its stderr
 * drained into the log on a thread of its own, and the means to end it with its whole
 * process tree ({@code npx} and shells start children that would otherwise outlive it).
 */
final class ChildProcess {

	/**
	 * How long each step of a shutdown waits for the process to exit: long enough for a
	 * server to finish writing, short enough for an application's shutdown.
	 */
	static final Duration SHUTDOWN_STEP = Duration.ofSeconds(2);

	/** How often the known descendants are looked up again while the process runs. */
	private static final long DESCENDANTS_REFRESH_NANOS = 1_000_000_000L;

	private final Process process;

	private final OutputStream stdin;

	private final Instant startedAt;

	private final Set<ProcessHandle> descendants = new LinkedHashSet<>();

	private volatile long descendantsSeenAt;

	private ChildProcess(Process process, Instant startedAt) {
		this.process = process;
		this.stdin = new BufferedOutputStream(process.getOutputStream(), 64 * 1024);
		this.startedAt = startedAt;
	}

	/**
	 * Starts the command: arguments as a list, never through a shell.
	 * @param upstream the upstream name, for the stderr log
	 * @param command what to start
	 * @return the running process
	 * @throws IOException if it cannot be started (a missing program, a missing
	 * directory, no permission)
	 */
	static ChildProcess start(String upstream, LaunchSpec command) throws IOException {
		List<String> commandLine = new ArrayList<>(1 + command.args().size());
		commandLine.add(command.command());
		commandLine.addAll(command.args());
		ProcessBuilder builder = new ProcessBuilder(commandLine);
		Map<String, String> environment = builder.environment();
		if (command.inherited() != null) {
			environment.keySet().retainAll(command.inherited());
		}
		environment.putAll(command.env());
		if (command.workingDirectory() != null) {
			builder.directory(command.workingDirectory().toFile());
		}
		builder.redirectInput(ProcessBuilder.Redirect.PIPE)
			.redirectOutput(ProcessBuilder.Redirect.PIPE)
			.redirectError(ProcessBuilder.Redirect.PIPE);
		Process process = builder.start();
		ChildProcess child = new ChildProcess(process, Instant.now());
		Thread stderr = new Thread(new StderrLog(upstream, process.pid(), process.getErrorStream(),
				List.copyOf(command.env().values())), "mcpx-" + upstream + "-stderr-" + process.pid());
		stderr.setDaemon(true);
		stderr.start();
		return child;
	}

	long pid() {
		return this.process.pid();
	}

	Instant startedAt() {
		return this.startedAt;
	}

	InputStream stdout() {
		return this.process.getInputStream();
	}

	boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Writes one line and flushes it. One writer at a time: lines never interleave.
	 * @param line the bytes of one message, without its newline
	 * @throws IOException if the pipe is closed (the process stopped reading)
	 */
	void writeLine(byte[] line) throws IOException {
		synchronized (this.stdin) {
			this.stdin.write(line);
			this.stdin.write('\n');
			this.stdin.flush();
		}
	}

	/**
	 * Waits for the process to end.
	 * @param timeout the longest wait
	 * @return its exit code, or {@code -1} if it still runs
	 */
	int awaitExit(Duration timeout) {
		try {
			if (this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				return this.process.exitValue();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return -1;
	}

	/**
	 * Looks up the process's descendants, at most once a second: once a parent is gone its
	 * orphans can no longer be found through it, so they are remembered while it lives.
	 */
	void noteDescendants() {
		long now = System.nanoTime();
		if (now - this.descendantsSeenAt < DESCENDANTS_REFRESH_NANOS) {
			return;
		}
		this.descendantsSeenAt = now;
		rememberDescendants();
	}

	private void rememberDescendants() {
		try {
			List<ProcessHandle> current = this.process.descendants().toList();
			synchronized (this.descendants) {
				this.descendants.removeIf((handle) -> !handle.isAlive());
				this.descendants.addAll(current);
			}
		}
		catch (RuntimeException ex) {
			// Descendants cannot be listed on this platform: only the process itself is ended.
		}
	}

	/** Ends the process and every descendant at once (SIGKILL). */
	void kill() {
		rememberDescendants();
		this.process.destroyForcibly();
		forEachDescendant(ProcessHandle::destroyForcibly);
	}

	/**
	 * Ends the process as the spec asks (2025-11-25 basic/lifecycle §Shutdown, stdio):
	 * close its stdin and wait, then SIGTERM and wait, then SIGKILL; each signal goes to
	 * the whole tree.
	 * @return the exit code, or {@code -1} when it is not known
	 */
	int shutdown() {
		rememberDescendants();
		try {
			synchronized (this.stdin) {
				this.stdin.close();
			}
		}
		catch (IOException ex) {
			// Already closed: the process stopped reading.
		}
		int code = awaitExit(SHUTDOWN_STEP);
		if (code < 0) {
			rememberDescendants();
			this.process.destroy();
			forEachDescendant(ProcessHandle::destroy);
			code = awaitExit(SHUTDOWN_STEP);
		}
		if (code < 0) {
			this.process.destroyForcibly();
			code = awaitExit(SHUTDOWN_STEP);
		}
		// Children that outlived their parent (they ignored stdin's end and SIGTERM, or
		// were reparented) are ended too: after shutdown nothing of the tree remains.
		forEachDescendant(ProcessHandle::destroy);
		awaitDescendants(SHUTDOWN_STEP);
		forEachDescendant(ProcessHandle::destroyForcibly);
		return code;
	}

	private void awaitDescendants(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		List<ProcessHandle> handles;
		synchronized (this.descendants) {
			handles = List.copyOf(this.descendants);
		}
		for (ProcessHandle handle : handles) {
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				return;
			}
			try {
				handle.onExit().get(left, TimeUnit.NANOSECONDS);
			}
			catch (Exception ex) {
				// Forcibly ended below.
				if (ex instanceof InterruptedException) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private void forEachDescendant(java.util.function.Consumer<ProcessHandle> action) {
		List<ProcessHandle> handles;
		synchronized (this.descendants) {
			handles = List.copyOf(this.descendants);
		}
		for (ProcessHandle handle : handles) {
			if (handle.isAlive()) {
				action.accept(handle);
			}
		}
	}

}
