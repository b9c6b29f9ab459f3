package dev.mcpx.client;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How to start a stdio MCP server: the program, its arguments (passed as a list, never
 * through a shell), what is added to its environment and where it runs (2025-11-25
 * basic/transports §stdio: the client launches the server as a subprocess).
 *
 * @param command the program, found on the {@code PATH} when it is not a path
 * @param args its arguments, each passed as one argument
 * @param env variables added to the child's environment; their values are never logged
 * @param workingDirectory where the child runs, absent for the application's own
 * @param inheritEnv whether the child starts from the application's environment; when
 * {@code false} it gets only {@code PATH}, {@code HOME}, {@code TMPDIR} and {@code LANG}
 * (plus {@code env})
 */
public record StdioCommand(String command, List<String> args, Map<String, String> env, @Nullable Path workingDirectory,
		boolean inheritEnv) {

	/** What a child gets of the application's environment when it inherits none. */
	public static final List<String> MINIMAL_ENVIRONMENT = List.of("PATH", "HOME", "TMPDIR", "LANG");

	public StdioCommand {
		Objects.requireNonNull(command, "command");
		if (command.isBlank()) {
			throw new IllegalArgumentException("The command of a stdio upstream must not be empty");
		}
		args = List.copyOf(args);
		env = Map.copyOf(env);
	}

	/**
	 * A command with arguments, inheriting the application's environment.
	 * @param command the program
	 * @param args its arguments
	 * @return the command
	 */
	public static StdioCommand of(String command, String... args) {
		return new StdioCommand(command, List.of(args), Map.of(), null, true);
	}

	/**
	 * This command with more environment variables.
	 * @param env added to the child's environment
	 * @return a new command
	 */
	public StdioCommand withEnv(Map<String, String> env) {
		return new StdioCommand(this.command, this.args, env, this.workingDirectory, this.inheritEnv);
	}

	/**
	 * This command in another working directory.
	 * @param workingDirectory where the child runs
	 * @return a new command
	 */
	public StdioCommand withWorkingDirectory(@Nullable Path workingDirectory) {
		return new StdioCommand(this.command, this.args, this.env, workingDirectory, this.inheritEnv);
	}

	/**
	 * This command with or without the application's environment.
	 * @param inheritEnv whether the child starts from the application's environment
	 * @return a new command
	 */
	public StdioCommand withInheritEnv(boolean inheritEnv) {
		return new StdioCommand(this.command, this.args, this.env, this.workingDirectory, inheritEnv);
	}

	/** Environment values may be secrets: only their names are shown. */
	@Override
	public String toString() {
		return "StdioCommand[command=" + this.command + ", args=" + this.args.size() + " argument(s), env="
				+ this.env.keySet() + ", workingDirectory=" + this.workingDirectory + ", inheritEnv=" + this.inheritEnv
				+ "]";
	}

}
