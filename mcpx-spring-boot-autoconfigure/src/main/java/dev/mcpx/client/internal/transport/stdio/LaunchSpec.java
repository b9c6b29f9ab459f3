package dev.mcpx.client.internal.transport.stdio;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a server process is started with.
 *
 * @param command the program
 * @param args its arguments, each passed as one argument
 * @param env variables added to its environment; their values are secrets
 * @param workingDirectory where it runs, absent for the application's own
 * @param inherited the variables of the application's environment it keeps, absent for
 * all of them
 */
public record LaunchSpec(String command, List<String> args, Map<String, String> env, @Nullable Path workingDirectory,
		@Nullable List<String> inherited) {

	public LaunchSpec {
		args = List.copyOf(args);
		env = Map.copyOf(env);
		inherited = (inherited != null) ? List.copyOf(inherited) : null;
	}

	@Override
	public String toString() {
		return "LaunchSpec[command=" + this.command + ", " + this.args.size() + " argument(s), env=" + this.env.keySet()
				+ "]";
	}

}
