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
import java.util.jar.Manifest;
import java.util.stream.Stream;

import dev.mcpx.client.McpClient;
import dev.mcpx.testsupport.NodePeer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Runs one client scenario of the official MCP conformance suite
 * ({@code @modelcontextprotocol/conformance} 0.2.0-alpha.12, installed in {@code src/test/node})
 * against {@link ConformanceClient} and asserts its verdict; shared by
 * {@link LegacyConformanceTest} and {@link ModernConformanceTest}.
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
		deleteRecursively(outputDir);
		Files.createDirectories(outputDir);
		String clientCommand = clientCommand(runDir);

		Path nodeDir = NodePeer.nodeDirectory();
		Path node = nodeDir.resolve(NODE_22);
		assertThat(node).as("the Node 22 binary of the npm package 'node' (run npm install in %s)", nodeDir)
			.isExecutable();
		List<String> command = new ArrayList<>(List.of(node.toString(), CONFORMANCE_CLI, "client", "--command",
				clientCommand, "--scenario", scenario, "-o", outputDir.toString()));
		if (passSpecVersion) {
			command.addAll(List.of("--spec-version", specVersion));
		}
		Path log = outputDir.resolve("conformance.log");
		Process process = new ProcessBuilder(command).directory(nodeDir.toFile())
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		int exitCode;
		try {
			process.getOutputStream().close();
			if (!process.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				destroyTree(process);
				fail("the conformance suite did not finish scenario %s within %d s%n%s", scenario,
						RUN_TIMEOUT.toSeconds(), read(log));
			}
			exitCode = process.exitValue();
		}
		finally {
			destroyTree(process);
		}

		String output = read(log);
		Path checksFile = checksFile(outputDir);
		assertThat(checksFile).as("checks.json of scenario %s at %s (none when the suite skips it); suite output:%n%s",
				scenario, specVersion, output).isNotNull();
		JsonNode checks = JSON.readTree(checksFile.toFile());
		List<String> bad = new ArrayList<>();
		int successes = 0;
		for (JsonNode check : checks) {
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
		String diagnosis = "%nsuite output:%n%s%nclient stdout:%n%s%nclient stderr:%n%s".formatted(output,
				readSibling(checksFile, "stdout.txt"), readSibling(checksFile, "stderr.txt"));
		assertThat(bad).as("failed or warned checks of scenario %s at %s%s", scenario, specVersion, diagnosis)
			.isEmpty();
		assertThat(successes).as("successful checks of scenario %s at %s%s", scenario, specVersion, diagnosis)
			.isPositive();
		assertThat(exitCode).as("exit code of the conformance suite for %s at %s%s", scenario, specVersion,
				diagnosis).isZero();
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
	private static Path runDirectory() throws IOException {
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
