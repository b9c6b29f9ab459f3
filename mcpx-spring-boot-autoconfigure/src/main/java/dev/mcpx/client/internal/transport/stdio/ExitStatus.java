package dev.mcpx.client.internal.transport.stdio;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * How a server process ended, in the words an operator searches for.
 *
 * @param pid the process id
 * @param code the exit code, {@code -1} when unknown
 * @param stoppedBecause why the client stopped the process, absent when it ended by itself
 */
public record ExitStatus(long pid, int code, @Nullable String stoppedBecause) {

	/** Exit codes above this are, on POSIX systems, 128 plus the signal that ended the process. */
	private static final int SIGNAL_BASE = 128;

	private static final Map<Integer, String> SIGNALS = Map.of(1, "SIGHUP", 2, "SIGINT", 3, "SIGQUIT", 6, "SIGABRT", 9,
			"SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 14, "SIGALRM", 15, "SIGTERM");

	/**
	 * The signal that ended the process, as far as the exit code tells.
	 * @return the signal's name, absent when the process exited by itself
	 */
	public @Nullable String signal() {
		if (this.code <= SIGNAL_BASE || this.code > SIGNAL_BASE + 64) {
			return null;
		}
		int signal = this.code - SIGNAL_BASE;
		return SIGNALS.getOrDefault(signal, "signal " + signal);
	}

	/**
	 * One phrase: {@code "process 4242 was killed by SIGKILL (exit code 137)"}.
	 * @return the description
	 */
	public String describe() {
		String process = "process " + this.pid;
		if (this.stoppedBecause != null) {
			return process + " was stopped because " + this.stoppedBecause;
		}
		String signal = signal();
		if (signal != null) {
			return process + " was killed by " + signal + " (exit code " + this.code + ")";
		}
		return process + " exited with code " + this.code;
	}

	@Override
	public String toString() {
		return describe();
	}

}
