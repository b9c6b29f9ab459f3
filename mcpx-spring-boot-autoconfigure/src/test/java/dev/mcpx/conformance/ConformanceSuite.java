package dev.mcpx.conformance;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.JarFile;
import java.util.function.Supplier;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.mcpx.client.McpClient;
import dev.mcpx.testsupport.NodePeer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Runs one scenario of the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance} 0.2.0-alpha.12, installed in {@code src/test/node})
 * and asserts its verdict: a client scenario against {@link ConformanceClient} (shared by
 * {@link LegacyConformanceTest}, {@link ModernConformanceTest} and {@link AuthConformanceTest}),
 * or a server scenario against a test peer ({@link TasksServerConformanceTest}; its output under
 * {@code target/conformance/<pid>/server/<label>/<scenario>/}).
 * <p>
 * The suite runs a command it is given, appending the scenario server's URL; here that command
 * is {@code <java.home>/bin/java -cp @<argfile> dev.mcpx.conformance.ConformanceClient}, the
 * argument file holding the test's own classpath. It tells the client the scenario in
 * {@code MCP_CONFORMANCE_SCENARIO}, the spec revision in {@code MCP_CONFORMANCE_PROTOCOL_VERSION}
 * and, for scenarios that have one, a JSON context in {@code MCP_CONFORMANCE_CONTEXT}. It
 * writes its verdict per check to {@code <output-dir>/<scenario>-<timestamp>/checks.json},
 * beside the client's {@code stdout.txt} and {@code stderr.txt} (here under
 * {@code target/conformance/<pid>/<spec-version>/<scenario>/}, with the suite's own output in
 * {@code conformance.log}).
 * <p>
 * The suite's exit code is non-zero on any {@code FAILURE} or {@code WARNING} check, a client
 * timeout, or a non-zero client exit, except that a scenario may tolerate a non-zero client
 * exit ({@code http-invalid-tool-headers} does: a client may fail on the invalid tools it was
 * offered). A run passes here when the suite exits {@code 0}, no check is {@code FAILURE} or
 * {@code WARNING}, and at least one check is {@code SUCCESS}.
 */
final class ConformanceSuite {

	/** The suite's CLI inside {@code src/test/node}: the package's {@code bin}. */
	private static final String CONFORMANCE_CLI = "node_modules/@modelcontextprotocol/conformance/dist/index.js";

	/** The npm package {@code node@22} ships this binary; the suite needs Node 22, not 20. */
	private static final String NODE_22 = "node_modules/.bin/node";

	/**
	 * Hard bound of one suite run: its own client timeout is 30 s, JVM start and the scenario
	 * servers add a few seconds; past this the run is hung and its process tree is destroyed.
	 */
	private static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

	private static final JsonMapper JSON = JsonMapper.shared();

	/** A scenario in the output of {@code conformance list}: {@code   - <name> [<versions>]}. */
	private static final Pattern SCENARIO_LINE = Pattern.compile("^\\s*- (\\S+) \\[.*\\]\\s*$");

	private ConformanceSuite() {
	}

	/**
	 * Runs a client scenario at a spec revision and asserts that it passed.
	 * @param scenario the scenario name
	 * @param specVersion the revision ({@code --spec-version}); a scenario not defined at it is
	 * skipped by the suite, which fails here (no {@code checks.json})
	 */
	static void assertClientScenarioPasses(String scenario, String specVersion) throws IOException,
			InterruptedException {
		assertClientScenarioPasses(scenario, specVersion, true);
	}

	/**
	 * Runs an extension scenario (not on the spec timeline, so the suite skips it when given
	 * {@code --spec-version}); the suite runs it at 2026-07-28, and its output is kept under
	 * that revision.
	 * @param scenario the scenario name
	 */
	static void assertExtensionScenarioPasses(String scenario) throws IOException, InterruptedException {
		assertClientScenarioPasses(scenario, ConformanceClient.MODERN_REVISION, false);
	}

	private static void assertClientScenarioPasses(String scenario, String specVersion, boolean passSpecVersion)
			throws IOException, InterruptedException {
		Path runDir = runDirectory();
		Path outputDir = runDir.resolve(specVersion).resolve(scenario);
		List<String> arguments = new ArrayList<>(List.of("client", "--command", clientCommand(runDir), "--scenario",
				scenario, "-o", outputDir.toString()));
		if (passSpecVersion) {
			arguments.addAll(List.of("--spec-version", specVersion));
		}
		Run run = run(arguments, outputDir, scenario);
		String diagnosis = "%nsuite output:%n%s%nclient stdout:%n%s%nclient stderr:%n%s".formatted(run.output(),
				readSibling(run.checksFile(), "stdout.txt"), readSibling(run.checksFile(), "stderr.txt"));
		assertPassed(run, scenario + " at " + specVersion, diagnosis);
	}

	/**
	 * Runs a server scenario of the tasks extension (or any extension scenario) against a server
	 * at 2026-07-28 and asserts that it passed. Extension scenarios are off the spec timeline, so
	 * the suite skips them at {@code --spec-version} unless {@code --force} is given.
	 * @param url the server's MCP endpoint
	 * @param scenario the scenario name
	 * @param label where the output goes, below {@code target/conformance/<pid>/server/}
	 * @param serverOutput what the server printed, for the failure message
	 */
	static void assertServerScenarioPasses(String url, String scenario, String label, Supplier<String> serverOutput)
			throws IOException, InterruptedException {
		Run run = runServerScenario(url, scenario, label);
		assertPassed(run, scenario + " against " + label,
				"%nsuite output:%n%s%nserver output:%n%s".formatted(run.output(), serverOutput.get()));
	}

	/**
	 * Runs a server scenario the suite itself does not judge yet and asserts that it still says
	 * so: exit code 0 and every check {@code SKIPPED}. When the suite starts judging it, this
	 * fails, and the scenario belongs with those that must pass.
	 * @param url the server's MCP endpoint
	 * @param scenario the scenario name
	 * @param label where the output goes, below {@code target/conformance/<pid>/server/}
	 */
	static void assertServerScenarioSkippedBySuite(String url, String scenario, String label)
			throws IOException, InterruptedException {
		Run run = runServerScenario(url, scenario, label);
		List<String> statuses = new ArrayList<>();
		run.checks().forEach((check) -> statuses.add(check.path("status").asString()));
		assertThat(statuses).as("checks of %s, which the suite skips itself; suite output:%n%s", scenario, run.output())
			.isNotEmpty()
			.containsOnly("SKIPPED");
		assertThat(run.exitCode()).as("exit code of the suite for %s%n%s", scenario, run.output()).isZero();
	}

	/**
	 * The server scenarios the suite has ({@code conformance list --server}), by name.
	 * @return the names, in the suite's order
	 */
	static List<String> serverScenarios() throws IOException, InterruptedException {
		Path outputDir = runDirectory().resolve("server");
		Files.createDirectories(outputDir);
		Path log = outputDir.resolve("list.log");
		Process process = start(List.of("list", "--server"), log);
		awaitSuite(process, "list --server", log);
		List<String> names = new ArrayList<>();
		for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
			Matcher matcher = SCENARIO_LINE.matcher(line);
			if (matcher.matches()) {
				names.add(matcher.group(1));
			}
		}
		return names;
	}

	private static Run runServerScenario(String url, String scenario, String label)
			throws IOException, InterruptedException {
		Path outputDir = runDirectory().resolve("server").resolve(label).resolve(scenario);
		return run(List.of("server", "--url", url, "--scenario", scenario, "--spec-version",
				ConformanceClient.MODERN_REVISION, "--force", "-o", outputDir.toString()), outputDir, scenario);
	}

	/** One run of the suite: its exit code, its output and the checks it wrote. */
	private record Run(int exitCode, String output, Path checksFile, JsonNode checks) {
	}

	/**
	 * Runs the suite with the given arguments into a fresh output directory, its output in
	 * {@code conformance.log} there, and reads the {@code checks.json} it wrote (a failed
	 * assertion when there is none: the suite skipped the scenario).
	 */
	private static Run run(List<String> arguments, Path outputDir, String scenario)
			throws IOException, InterruptedException {
		deleteRecursively(outputDir);
		Files.createDirectories(outputDir);
		Path log = outputDir.resolve("conformance.log");
		int exitCode = awaitSuite(start(arguments, log), scenario, log);
		String output = read(log);
		Path checksFile = checksFile(outputDir);
		assertThat(checksFile).as("checks.json of scenario %s (none when the suite skips it); suite output:%n%s",
				scenario, output).isNotNull();
		return new Run(exitCode, output, checksFile, JSON.readTree(checksFile.toFile()));
	}

	private static Process start(List<String> arguments, Path log) throws IOException {
		Path nodeDir = NodePeer.nodeDirectory();
		Path node = nodeDir.resolve(NODE_22);
		assertThat(node).as("the Node 22 binary of the npm package 'node' (run npm install in %s)", nodeDir)
			.isExecutable();
		List<String> command = new ArrayList<>(List.of(node.toString(), CONFORMANCE_CLI));
		command.addAll(arguments);
		Process process = new ProcessBuilder(command).directory(nodeDir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		process.getOutputStream().close();
		return process;
	}

	/** Waits for the suite (at most {@link #RUN_TIMEOUT}) and returns its exit code. */
	private static int awaitSuite(Process process, String what, Path log) throws InterruptedException {
		try {
			if (!process.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				destroyTree(process);
				fail("the conformance suite did not finish %s within %d s%n%s", what, RUN_TIMEOUT.toSeconds(),
						read(log));
			}
			return process.exitValue();
		}
		finally {
			destroyTree(process);
		}
	}

	/** Passed: no check is {@code FAILURE} or {@code WARNING}, at least one {@code SUCCESS}, exit code 0. */
	private static void assertPassed(Run run, String what, String diagnosis) {
		List<String> bad = new ArrayList<>();
		int successes = 0;
		for (JsonNode check : run.checks()) {
			String status = check.path("status").asString();
			if (status.equals("SUCCESS")) {
				successes++;
			}
			else if (status.equals("FAILURE") || status.equals("WARNING")) {
				bad.add(status + " " + check.path("id").asString() + " (" + check.path("name").asString() + "): "
						+ check.path("errorMessage").asString(check.path("description").asString()) + "; details "
						+ check.path("details"));
			}
		}
		assertThat(bad).as("failed or warned checks of scenario %s%s", what, diagnosis).isEmpty();
		assertThat(successes).as("successful checks of scenario %s%s", what, diagnosis).isPositive();
		assertThat(run.exitCode()).as("exit code of the conformance suite for %s%s", what, diagnosis).isZero();
	}

	/**
	 * The command the suite runs, a single string it splits at spaces and hands to a shell with
	 * the server URL appended: so every path is single-quoted for the shell.
	 */
	private static String clientCommand(Path runDir) throws IOException {
		Path argFile = runDir.resolve("client-classpath.argfile");
		String classpath = String.join(File.pathSeparator, testClasspath());
		// a Java argument file: one quoted token, backslashes escaped (Windows paths)
		Files.writeString(argFile, "\"" + classpath.replace("\\", "\\\\").replace("\"", "\\\"") + "\"\n",
				StandardCharsets.UTF_8);
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		return shellQuote(java.toString()) + " -cp " + shellQuote("@" + argFile) + " "
				+ ConformanceClient.class.getName();
	}

	/**
	 * This JVM's classpath. Surefire's default "manifest-only jar" puts a single
	 * {@code surefirebooter*.jar} on the real classpath whose manifest {@code Class-Path} lists
	 * the test classpath; it also sets {@code java.class.path} to the test classpath, but either
	 * is read here. The result must contain the test classes and the client classes.
	 */
	static List<String> testClasspath() throws IOException {
		Set<String> entries = new LinkedHashSet<>();
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			if (entry.isEmpty()) {
				continue;
			}
			Path path = Path.of(entry).toAbsolutePath();
			if (path.getFileName().toString().startsWith("surefirebooter") && Files.isRegularFile(path)) {
				entries.addAll(manifestClassPath(path));
			}
			else {
				entries.add(path.toString());
			}
		}
		List<String> classpath = new ArrayList<>(entries);
		assertThat(classpath).as("the test classpath").contains(codeSource(ConformanceClient.class),
				codeSource(McpClient.class));
		return classpath;
	}

	private static List<String> manifestClassPath(Path jar) throws IOException {
		List<String> entries = new ArrayList<>();
		try (JarFile file = new JarFile(jar.toFile())) {
			Manifest manifest = file.getManifest();
			String classPath = (manifest != null) ? manifest.getMainAttributes().getValue("Class-Path") : null;
			if (classPath == null) {
				return List.of(jar.toString());
			}
			for (String url : classPath.trim().split("\\s+")) {
				try {
					entries.add(Path.of(jar.toUri().resolve(url)).toString());
				}
				catch (IllegalArgumentException ex) {
					throw new IllegalStateException("unreadable Class-Path entry '" + url + "' in " + jar, ex);
				}
			}
		}
		return entries;
	}

	private static String codeSource(Class<?> type) {
		try {
			return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * {@code target/conformance/<pid>/}: {@code target/} is the parent of
	 * {@code target/test-classes}, where this class was loaded from; the process id keeps two
	 * builds running at once in one work tree (or parallel forks) out of each other's files.
	 */
	static Path runDirectory() throws IOException {
		Path target = Path.of(codeSource(ConformanceSuite.class)).getParent();
		return Files.createDirectories(
				target.resolve("conformance").resolve(Long.toString(ProcessHandle.current().pid())));
	}

	private static Path checksFile(Path outputDir) throws IOException {
		try (Stream<Path> files = Files.walk(outputDir)) {
			return files.filter((file) -> file.getFileName().toString().equals("checks.json"))
				.findFirst()
				.orElse(null);
		}
	}

	private static String readSibling(Path file, String name) {
		return read(file.resolveSibling(name));
	}

	private static String read(Path file) {
		try {
			return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(none)";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String shellQuote(String word) {
		return "'" + word.replace("'", "'\\''") + "'";
	}

	/** Ends the suite's process and whatever it started (the shell, the client JVM). */
	private static void destroyTree(Process process) {
		List<ProcessHandle> descendants = process.descendants().toList();
		descendants.forEach(ProcessHandle::destroy);
		process.destroy();
		awaitExit(process.toHandle());
		for (ProcessHandle descendant : descendants) {
			awaitExit(descendant);
		}
	}

	private static void awaitExit(ProcessHandle handle) {
		try {
			handle.onExit().get(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			handle.destroyForcibly();
		}
		catch (ExecutionException | TimeoutException ex) {
			handle.destroyForcibly();
		}
	}

	private static void deleteRecursively(Path dir) throws IOException {
		if (!Files.exists(dir)) {
			return;
		}
		try (Stream<Path> files = Files.walk(dir)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
	}

}
