package dev.mcpx.docs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.autoconfigure.oauth.McpxOAuthProperties;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation stays a newcomer's read and a reference to trust: the README is short and
 * the reference lives under {@code docs/}; {@code docs/configuration.md} names every property;
 * every relative link and every cited section ({@code docs/architecture.md, "Layers"}) exists;
 * and no file cites the issue tracker or a document outside the repository (comments cite the
 * spec or {@code docs/}).
 */
class DocumentationTest {

	/** The README is what a newcomer reads to the end; the reference belongs under docs/. */
	private static final int README_MAX_CHARACTERS = 12_000;

	/** Built, fetched or local files and directories, which are not the repository's own text. */
	private static final Set<String> NOT_SOURCE = Set.of(".git", ".idea", ".vscode", "target", "node_modules");

	/** Citations of the issue tracker or of documents kept outside the repository. */
	private static final List<Pattern> OUTSIDE_CITATIONS = List.of(
			Pattern.compile("\\bissue\\s*#?\\d+|\\bissues\\s*#\\d+", Pattern.CASE_INSENSITIVE),
			Pattern.compile("issues/\\d+", Pattern.CASE_INSENSITIVE), Pattern.compile("\\((?:#|GH-)\\d+\\)"),
			Pattern.compile("\\b(?:PEERS|DESIGN|STYLE)(?:\\.md\\b|\\s*§)"), Pattern.compile("\\.\\./(?:shared|briefs)\\b"),
			Pattern.compile("/work/(?:shared|briefs)\\b"));

	/** {@code docs/architecture.md, "Layers"}, {@code architecture.md "The bound"}, {@code README, "Spring AI"}. */
	private static final Pattern CITED_SECTION = Pattern
		.compile("(?<![\\w/.-])(README|(?:docs/)?[A-Za-z][A-Za-z-]*\\.md)\\}?,?[ \\t]+\"([^\"\\n]+(?:\\n[^\"\\n]+)?)\"");

	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*$");

	private static final Path ROOT = root();

	/** The repository's text files and their text, read once for every test. */
	private static final Map<Path, String> SOURCES = sources();

	@Test
	void theReadmeIsUnderTwelveThousandCharacters() throws IOException {
		String readme = Files.readString(ROOT.resolve("README.md"));
		assertThat(readme.codePointCount(0, readme.length())).as("characters of README.md")
			.isLessThan(README_MAX_CHARACTERS);
	}

	@Test
	void theReadmeGivesTheTestCommandThatCiRuns() throws IOException {
		String ci = Files.readString(ROOT.resolve(".ci/run"));
		String readme = Files.readString(ROOT.resolve("README.md"));
		assertThat(ci).contains("./mvnw verify");
		assertThat(readme).contains("./mvnw verify ");
	}

	@Test
	void everyPropertyInTheConfigurationMetadataIsInTheConfigurationReference() throws IOException {
		String reference = Files.readString(ROOT.resolve("docs/configuration.md"));
		List<String> missing = new ArrayList<>();
		for (JsonNode property : metadata().path("properties")) {
			String name = property.path("name").asString();
			// mcpx.discovery.defaults takes the same upstream settings as mcpx.defaults
			String defaults = name.startsWith("mcpx.discovery.defaults.") ? "mcpx.discovery.defaults."
					: "mcpx.defaults.";
			if (name.startsWith(defaults)) {
				String key = name.substring(defaults.length());
				if (!Pattern.compile("`" + Pattern.quote(key) + "[`.\\[]").matcher(reference).find()) {
					missing.add(name);
				}
			}
			else if (name.startsWith("mcpx.") && !name.equals("mcpx.clients")
					&& !reference.contains("`" + name + "`")) {
				missing.add(name);
			}
		}
		assertThat(missing).as("properties missing from docs/configuration.md").isEmpty();
	}

	@Test
	void everyPropertyOnlyAnUpstreamHasIsInTheConfigurationReference() throws IOException {
		// Not in the metadata: they sit under the map mcpx.clients, or are bound per upstream.
		String reference = Files.readString(ROOT.resolve("docs/configuration.md"));
		Set<String> keys = new LinkedHashSet<>(properties(McpxProperties.Client.class));
		keys.addAll(properties(McpxOAuthProperties.class));
		properties(McpxOAuthProperties.IdentityProvider.class).forEach((key) -> keys.add("identity-provider." + key));
		assertThat(keys).contains("url", "command", "working-directory", "client-metadata-url");
		assertThat(keys).as("properties missing from docs/configuration.md")
			.allSatisfy((key) -> assertThat(reference).contains("`" + key + "`"));
	}

	@Test
	void everyRelativeLinkInTheDocsLeadsSomewhere() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path page : markdown()) {
			Matcher link = LINK.matcher(SOURCES.get(page));
			while (link.find()) {
				String target = link.group(1);
				if (target.matches("^[a-z]+:.*")) {
					continue;
				}
				int hash = target.indexOf('#');
				Path file = (hash == 0) ? page : page.resolveSibling((hash < 0) ? target : target.substring(0, hash));
				if (!Files.exists(file)) {
					broken.add(ROOT.relativize(page) + ": " + target);
				}
				else if (hash >= 0 && file.toString().endsWith(".md")
						&& !anchors(file).contains(target.substring(hash + 1))) {
					broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
				}
			}
		}
		assertThat(broken).as("links that lead nowhere").isEmpty();
	}

	@Test
	void everySectionOfTheDocsThatAFileCitesExists() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Map.Entry<Path, String> file : SOURCES.entrySet()) {
			Matcher cited = CITED_SECTION.matcher(file.getValue());
			while (cited.find()) {
				Path doc = document(cited.group(1));
				String section = cited.group(2).replaceAll("\\s*\\n\\s*(?:\\*|//|#)?\\s*", " ");
				if (doc == null) {
					broken.add(ROOT.relativize(file.getKey()) + ": " + cited.group(1) + " does not exist");
				}
				else if (headings(doc).stream()
					.noneMatch((heading) -> heading.equals(section) || heading.startsWith(section + " ("))) {
					broken.add(ROOT.relativize(file.getKey()) + ": " + cited.group(1) + " has no section \"" + section
							+ "\"");
				}
			}
		}
		assertThat(broken).as("cited sections that do not exist").isEmpty();
	}

	@Test
	void noFileCitesTheIssueTrackerOrADocumentOutsideTheRepository() throws IOException {
		List<String> citations = new ArrayList<>();
		for (Map.Entry<Path, String> file : SOURCES.entrySet()) {
			for (Pattern pattern : OUTSIDE_CITATIONS) {
				Matcher citation = pattern.matcher(file.getValue());
				while (citation.find()) {
					citations.add(ROOT.relativize(file.getKey()) + ": " + citation.group());
				}
			}
		}
		assertThat(citations).as("citations of the issue tracker or of documents outside the repository")
			.isEmpty();
	}

	/** The repository's text files: sources, scripts, build files and docs; nothing built or fetched. */
	private static Map<Path, String> sources() {
		Map<Path, String> sources = new TreeMap<>();
		try {
			Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {

				@Override
				public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
					boolean skipped = NOT_SOURCE.contains(dir.getFileName().toString())
							|| ROOT.relativize(dir).equals(Path.of("bench", "results", "raw"));
					return (skipped && !dir.equals(ROOT)) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
					String name = file.getFileName().toString();
					if (attributes.isRegularFile() && !NOT_SOURCE.contains(name) && !name.endsWith(".log")
							&& !name.endsWith(".jar") && !name.equals("package-lock.json")) {
						byte[] bytes = Files.readAllBytes(file);
						if (isText(bytes)) {
							sources.put(file, new String(bytes, StandardCharsets.UTF_8));
						}
					}
					return FileVisitResult.CONTINUE;
				}

			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return sources;
	}

	private static List<Path> markdown() {
		return SOURCES.keySet().stream().filter((file) -> file.toString().endsWith(".md")).toList();
	}

	private static @Nullable Path document(String cited) {
		Path file = cited.equals("README") ? ROOT.resolve("README.md") : ROOT.resolve(cited);
		if (!cited.contains("/") && !Files.exists(file)) {
			file = ROOT.resolve("docs").resolve(cited);
		}
		return Files.exists(file) ? file : null;
	}

	/** A page's headings, outside fenced code blocks. */
	private static List<String> headings(Path page) throws IOException {
		List<String> headings = new ArrayList<>();
		boolean fenced = false;
		for (String line : Files.readAllLines(page)) {
			if (line.startsWith("```")) {
				fenced = !fenced;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (!fenced && heading.matches()) {
				headings.add(heading.group(1));
			}
		}
		return headings;
	}

	/** The anchors a page's headings get: lower case, punctuation dropped, spaces as hyphens. */
	private static Set<String> anchors(Path page) throws IOException {
		Set<String> anchors = new LinkedHashSet<>();
		for (String heading : headings(page)) {
			anchors.add(heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
		}
		return anchors;
	}

	/** The bean properties a class declares itself, as a property file names them. */
	private static Set<String> properties(Class<?> type) {
		Set<String> names = new LinkedHashSet<>();
		for (Method method : type.getDeclaredMethods()) {
			if (Modifier.isPublic(method.getModifiers()) && method.getParameterCount() == 0
					&& method.getName().startsWith("get") && method.getName().length() > 3) {
				String property = method.getName().substring(3);
				names.add((Character.toLowerCase(property.charAt(0)) + property.substring(1))
					.replaceAll("([a-z0-9])([A-Z])", "$1-$2")
					.toLowerCase(Locale.ROOT));
			}
		}
		return names;
	}

	private static boolean isText(byte[] bytes) {
		for (byte b : bytes) {
			if (b == 0) {
				return false;
			}
		}
		return true;
	}

	private static JsonNode metadata() throws IOException {
		try (InputStream in = DocumentationTest.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("the generated configuration metadata").isNotNull();
			return JsonMapper.shared().readTree(in);
		}
	}

	/** The repository's root: the tests run in their module's directory. */
	private static Path root() {
		Path dir = Path.of("").toAbsolutePath();
		while (dir != null && !(Files.exists(dir.resolve("mvnw")) && Files.exists(dir.resolve("docs")))) {
			dir = dir.getParent();
		}
		assertThat(dir).as("the repository root, above " + Path.of("").toAbsolutePath()).isNotNull();
		return dir;
	}

}
