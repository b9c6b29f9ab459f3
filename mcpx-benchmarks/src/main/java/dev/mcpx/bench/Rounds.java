package dev.mcpx.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Interleaved rounds: every contender in a {@link Worker} JVM of its own, all against one
 * upstream that runs here, measured one after the other in each round (A, B, C, A, B, C, …),
 * so that the machine's drift between latency levels hits every contender alike and a ratio
 * taken within a round compares like with like; every other round runs in reverse order, so
 * that a drift within a round does too. Writes the per-round figures of every
 * contender as JSON; {@code bench/summarize.py} computes the ratios per round and their
 * median.
 * <pre>
 * java -cp ... dev.mcpx.bench.Rounds --upstream fixed|sdk --rounds 5 --settle 1 --warm 12 --warm-sdk 24
 *     --latency 2 --throughput 2 --threads 16 --out rounds.json
 *     --contender mcpx=CLASSPATH --contender sdk-2.1.0=CLASSPATH ...
 * </pre>
 * A contender's name is its kind ({@code mcpx}, {@code sdk}, {@code raw}), optionally
 * followed by {@code -} and a label (the SDK version its classpath holds).
 */
public final class Rounds {

	private Rounds() {
	}

	public static void main(String[] args) throws Exception {
		Map<String, String> options = new LinkedHashMap<>();
		Map<String, String> contenders = new LinkedHashMap<>();
		List<String> jvmArgs = new ArrayList<>();
		for (int i = 0; i < args.length; i += 2) {
			switch (args[i]) {
				case "--contender" -> {
					String[] nameAndClasspath = args[i + 1].split("=", 2);
					contenders.put(nameAndClasspath[0], nameAndClasspath[1]);
				}
				case "--jvm" -> jvmArgs.add(args[i + 1]);
				default -> options.put(args[i].substring(2), args[i + 1]);
			}
		}
		int rounds = Integer.parseInt(options.getOrDefault("rounds", "5"));
		int settle = Integer.parseInt(options.getOrDefault("settle", "1"));
		double warm = Double.parseDouble(options.getOrDefault("warm", "12"));
		double warmSdk = Double.parseDouble(options.getOrDefault("warm-sdk", "24"));
		String latency = options.getOrDefault("latency", "2");
		String throughput = options.getOrDefault("throughput", "2");
		String threads = options.getOrDefault("threads", "16");
		long started = System.nanoTime();
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("upstream", options.get("upstream"));
		out.put("rounds", rounds);
		out.put("settling_rounds", settle);
		out.put("order", new ArrayList<>(contenders.keySet()));
		out.put("latency_seconds", Double.parseDouble(latency));
		out.put("throughput_seconds", Double.parseDouble(throughput));
		out.put("throughput_threads", Integer.parseInt(threads));
		try (Upstream upstream = Upstream.start(Objects.requireNonNull(options.get("upstream"), "--upstream"))) {
			Map<String, Child> workers = new LinkedHashMap<>();
			try {
				for (Map.Entry<String, String> contender : contenders.entrySet()) {
					String kind = contender.getKey().split("-", 2)[0];
					Child child = Child.start(contender.getValue(), jvmArgs, kind, upstream.url());
					workers.put(contender.getKey(), child);
					double seconds = kind.equals("sdk") ? warmSdk : warm;
					say(started, "warming " + contender.getKey() + " for " + seconds + " s: " + child.ready);
					child.ask("warm " + seconds);
				}
				// Settling rounds, not recorded: each worker sat idle while the others warmed (a
				// minute and more), and the first round after that ran slower for every client
				// with a deep call path (mcpx and the SDK clients alike), not for raw.
				String round = "round " + latency + " " + throughput + " " + threads;
				for (int r = 0; r < settle; r++) {
					for (Map.Entry<String, Child> worker : workers.entrySet()) {
						String answer = worker.getValue().ask(round);
						say(started, "settling round " + (r + 1) + ", " + worker.getKey() + " (not counted): " + answer);
					}
				}
				Map<String, List<Object>> perRound = new LinkedHashMap<>();
				workers.keySet().forEach((name) -> perRound.put(name, new ArrayList<>()));
				for (int r = 0; r < rounds; r++) {
					// Every other round in reverse (A, B, C, D, then D, C, B, A): a drift of the
					// machine within a round lands on both sides of each ratio alike.
					List<Map.Entry<String, Child>> turn = new ArrayList<>(workers.entrySet());
					if (r % 2 == 1) {
						Collections.reverse(turn);
					}
					for (Map.Entry<String, Child> worker : turn) {
						// The last worker's threads wound down (its callers' last calls, the SDK
						// client's own threads) before the next one measures.
						Thread.sleep(500);
						String answer = worker.getValue().ask(round);
						Objects.requireNonNull(perRound.get(worker.getKey())).add(new Measurements.RawJson(answer));
						say(started, "round " + (r + 1) + ", " + worker.getKey() + ": " + answer);
					}
				}
				out.put("per_round", perRound);
			}
			finally {
				workers.values().forEach(Child::close);
			}
		}
		out.put("seconds", Math.round((System.nanoTime() - started) / 1e9));
		Files.writeString(Path.of(options.get("out")), Measurements.Json.write(out) + "\n");
		System.exit(0);
	}

	private static void say(long started, String line) {
		System.out.printf(Locale.ROOT, "[%3d s] %s%n", (System.nanoTime() - started) / 1_000_000_000, line);
		System.out.flush();
	}

	/** A worker JVM and its command line. */
	private static final class Child implements AutoCloseable {

		private final Process process;

		private final BufferedReader answers;

		private final Writer commands;

		private final String ready;

		private Child(Process process) throws IOException {
			this.process = process;
			this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
			this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
			this.ready = answerLine();
		}

		static Child start(String classpath, List<String> jvmArgs, String kind, String url) throws IOException {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			List<String> command = new ArrayList<>(List.of(java, "-cp", classpath));
			command.addAll(jvmArgs);
			command.addAll(List.of(Worker.class.getName(), kind, url));
			return new Child(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
		}

		String ask(String command) throws IOException {
			this.commands.write(command + "\n");
			this.commands.flush();
			return answerLine();
		}

		/** The next JSON line; anything else the worker printed (a log line) is skipped. */
		private String answerLine() throws IOException {
			for (String line = this.answers.readLine(); line != null; line = this.answers.readLine()) {
				if (line.startsWith("{")) {
					return line;
				}
			}
			throw new IOException("the worker ended without an answer (exit " + waitExit() + ")");
		}

		private int waitExit() {
			try {
				return this.process.waitFor();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return -1;
			}
		}

		@Override
		public void close() {
			try {
				this.commands.write("quit\n");
				this.commands.flush();
			}
			catch (IOException ex) {
				// already gone
			}
			try {
				if (!this.process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
					this.process.destroyForcibly();
				}
			}
			catch (InterruptedException ex) {
				this.process.destroyForcibly();
				Thread.currentThread().interrupt();
			}
		}

	}

}
