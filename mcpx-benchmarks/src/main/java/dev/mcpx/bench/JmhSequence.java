package dev.mcpx.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * Runs JMH command lines one after another in one JVM. With {@code -f 0} the runs share this
 * JVM, so each starts with the code the runs before it compiled: bench/run's quick mode gives
 * every contender on every upstream a JVM of its own and measures throughput, then latency in
 * it. A client reaches steady state only after some 50,000 calls (about 10 s for mcpx and raw
 * HTTP, 25 s for the SDK client on a 2-core machine); paying that once per contender instead
 * of once per benchmark is what lets quick mode measure compiled code in a few minutes. Only
 * one contender is ever open in the JVM, so no other client's code pollutes its profiles.
 * <pre>
 * java -Xms1g -Xmx1g -cp ... dev.mcpx.bench.JmhSequence &lt;JMH options&gt; --then &lt;JMH options&gt; ...
 * </pre>
 */
public final class JmhSequence {

	private JmhSequence() {
	}

	public static void main(String[] args) throws Exception {
		List<String> run = new ArrayList<>();
		for (String arg : args) {
			if (arg.equals("--then")) {
				run(run);
				run.clear();
			}
			else {
				run.add(arg);
			}
		}
		run(run);
		System.exit(0); // the clients' HttpClient selector threads
	}

	private static void run(List<String> args) throws Exception {
		Collection<RunResult> results = new Runner(new CommandLineOptions(args.toArray(String[]::new))).run();
		if (results.isEmpty()) {
			// a failed benchmark (its output file says why) leaves a gap in the summary, not
			// the other runs undone
			System.err.println("WARNING: no result from JMH " + String.join(" ", args));
		}
	}

}
