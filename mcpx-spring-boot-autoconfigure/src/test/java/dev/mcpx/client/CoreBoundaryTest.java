package dev.mcpx.client;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape of the client core, checked on the compiled classes' constant pools, where
 * every referenced type is named (see {@code docs/architecture.md}, "Layers"):
 * <ul>
 * <li>the core stands on spring-web and Jackson alone: no class under
 * {@code dev.mcpx.client} refers to Spring Boot or to the auto-configuration;</li>
 * <li>every package belongs to a layer, and no package refers to a layer above its own;</li>
 * <li>no two packages refer to each other, directly or through others;</li>
 * <li>the public API names no internal type.</li>
 * </ul>
 */
class CoreBoundaryTest {

	private static final String CORE = "dev.mcpx.client";

	/**
	 * The layers, from the bottom up; a package may refer to its own layer and those
	 * below. Listed here, and in docs/architecture.md, so a new package is a decision.
	 */
	private static final List<List<String>> LAYERS = List.of(
			List.of("dev.mcpx.client.model"),
			List.of("dev.mcpx.client.error"),
			List.of("dev.mcpx.client.event"),
			List.of("dev.mcpx.client.recovery"),
			List.of("dev.mcpx.client.internal.events"),
			List.of("dev.mcpx.client.internal.protocol"),
			List.of("dev.mcpx.client.internal.transport"),
			List.of("dev.mcpx.client.internal.transport.http", "dev.mcpx.client.internal.transport.stdio"),
			List.of("dev.mcpx.client.internal.session"),
			List.of("dev.mcpx.client.internal.catalogue"),
			List.of("dev.mcpx.client.internal.recovery"),
			List.of("dev.mcpx.client.internal.task"),
			List.of("dev.mcpx.client.internal.assembly"),
			List.of("dev.mcpx.client"),
			// OAuth credentials: an McpCredentials on Spring Security and Nimbus (optional)
			List.of("dev.mcpx.client.oauth"));

	private static final Pattern CORE_TYPE = Pattern.compile("dev/mcpx/client/[A-Za-z0-9_/$]+");

	@Test
	void theClientCoreReferencesNothingFromSpringBootOrTheAutoConfiguration() throws Exception {
		List<Path> classes = coreClasses();
		assertThat(classes).as("compiled core classes").hasSizeGreaterThan(30);
		for (Path type : classes) {
			String constants = new String(Files.readAllBytes(type), StandardCharsets.ISO_8859_1);
			assertThat(constants).as(type.getFileName().toString())
				.doesNotContain("org/springframework/boot")
				.doesNotContain("dev/mcpx/autoconfigure");
		}
	}

	/**
	 * Spring Security and Nimbus are optional: only the OAuth package may refer to them, so a
	 * client without them on the classpath never loads a class that needs them.
	 */
	@Test
	void onlyTheOAuthPackageReferencesSpringSecurityOrNimbus() throws Exception {
		List<Path> classes = coreClasses();
		int oauth = 0;
		for (Path type : classes) {
			String constants = new String(Files.readAllBytes(type), StandardCharsets.ISO_8859_1);
			if (type.toString().replace('\\', '/').contains("dev/mcpx/client/oauth/")) {
				oauth++;
				continue;
			}
			assertThat(constants).as(type.getFileName().toString())
				.doesNotContain("org/springframework/security")
				.doesNotContain("com/nimbusds");
		}
		assertThat(oauth).as("compiled classes of the OAuth package").isGreaterThan(5);
	}

	@Test
	void everyPackageOfTheCoreBelongsToALayer() throws Exception {
		Set<String> layered = new LinkedHashSet<>();
		LAYERS.forEach(layered::addAll);
		assertThat(packageReferences().keySet()).as("packages of the client core").isSubsetOf(layered);
	}

	@Test
	void everyPackageOfTheCoreIsNullMarked() throws Exception {
		List<String> unmarked = new ArrayList<>();
		for (String pkg : packageReferences().keySet()) {
			try {
				Class<?> info = Class.forName(pkg + ".package-info", false, getClass().getClassLoader());
				if (!info.isAnnotationPresent(NullMarked.class)) {
					unmarked.add(pkg);
				}
			}
			catch (ClassNotFoundException ex) {
				unmarked.add(pkg + " (no package-info)");
			}
		}
		assertThat(unmarked).as("packages without @NullMarked").isEmpty();
	}

	@Test
	void noPackageRefersToALayerAboveItsOwn() throws Exception {
		List<String> violations = new ArrayList<>();
		packageReferences().forEach((from, targets) -> {
			for (String to : targets) {
				if (layer(to) > layer(from)) {
					violations.add(from + " (layer " + layer(from) + ") refers to " + to + " (layer " + layer(to) + ")");
				}
			}
		});
		assertThat(violations).as("references upwards").isEmpty();
	}

	@Test
	void noPackagesOfTheCoreReferToEachOtherInACycle() throws Exception {
		Map<String, Set<String>> graph = packageReferences();
		List<String> cycles = new ArrayList<>();
		for (String start : graph.keySet()) {
			List<String> path = cycleThrough(start, graph);
			if (path != null) {
				cycles.add(String.join(" -> ", path));
			}
		}
		assertThat(cycles).as("package cycles").isEmpty();
	}

	@Test
	void theCycleCheckFindsACycle() {
		Map<String, Set<String>> graph = Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a"), "d",
				Set.of("a"));
		assertThat(cycleThrough("a", graph)).containsExactly("a", "b", "c", "a");
		assertThat(cycleThrough("d", graph)).isNull();
	}

	@Test
	void thePublicApiNamesNoInternalType() throws Exception {
		List<String> leaks = new ArrayList<>();
		for (Path file : coreClasses()) {
			String name = className(file);
			if (name.contains(".internal.") || name.contains("$")) {
				continue;
			}
			Class<?> type = Class.forName(name, false, getClass().getClassLoader());
			if (!Modifier.isPublic(type.getModifiers())) {
				continue;
			}
			List<Executable> members = new ArrayList<>();
			for (Method method : type.getDeclaredMethods()) {
				members.add(method);
			}
			for (Constructor<?> constructor : type.getDeclaredConstructors()) {
				members.add(constructor);
			}
			for (Executable member : members) {
				if (!Modifier.isPublic(member.getModifiers()) && !Modifier.isProtected(member.getModifiers())) {
					continue;
				}
				List<Type> signature = new ArrayList<>(List.of(member.getGenericParameterTypes()));
				if (member instanceof Method method) {
					signature.add(method.getGenericReturnType());
				}
				for (Type part : signature) {
					if (part.getTypeName().contains(CORE + ".internal.")) {
						leaks.add(type.getSimpleName() + "." + member.getName() + " names " + part.getTypeName());
					}
				}
			}
		}
		assertThat(leaks).as("internal types in public signatures").isEmpty();
	}

	private static int layer(String pkg) {
		for (int i = 0; i < LAYERS.size(); i++) {
			if (LAYERS.get(i).contains(pkg)) {
				return i;
			}
		}
		throw new IllegalStateException(pkg + " is in no layer");
	}

	/** A path from the start back to itself, or {@code null} when there is none. */
	private static List<String> cycleThrough(String start, Map<String, Set<String>> graph) {
		Deque<List<String>> paths = new ArrayDeque<>();
		paths.add(List.of(start));
		Set<String> seen = new TreeSet<>();
		while (!paths.isEmpty()) {
			List<String> path = paths.removeFirst();
			String last = path.get(path.size() - 1);
			for (String next : new TreeSet<>(graph.getOrDefault(last, Set.of()))) {
				List<String> longer = new ArrayList<>(path);
				longer.add(next);
				if (next.equals(start)) {
					return longer;
				}
				if (seen.add(next)) {
					paths.addLast(longer);
				}
			}
		}
		return null;
	}

	/** Per package of the core, the other core packages its classes refer to. */
	private static Map<String, Set<String>> packageReferences() throws IOException, URISyntaxException {
		Map<String, Set<String>> references = new TreeMap<>();
		for (Path file : coreClasses()) {
			String from = packageOf(className(file));
			Set<String> targets = references.computeIfAbsent(from, (key) -> new TreeSet<>());
			String constants = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
			Matcher matcher = CORE_TYPE.matcher(constants);
			while (matcher.find()) {
				String to = packageOf(matcher.group().replace('/', '.'));
				if (!to.equals(from)) {
					targets.add(to);
				}
			}
		}
		return references;
	}

	private static String packageOf(String className) {
		return className.substring(0, className.lastIndexOf('.'));
	}

	private static String className(Path file) throws URISyntaxException {
		String relative = root().relativize(file).toString().replace('\\', '/');
		return relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
	}

	private static Path root() throws URISyntaxException {
		return Path.of(McpClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
	}

	private static List<Path> coreClasses() throws IOException, URISyntaxException {
		try (Stream<Path> files = Files.walk(root().resolve("dev/mcpx/client"))) {
			return files.filter((file) -> file.toString().endsWith(".class"))
				.filter((file) -> !file.getFileName().toString().equals("package-info.class"))
				.toList();
		}
	}

}
