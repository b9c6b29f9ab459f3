package dev.mcpx.client;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client core stands on spring-web and Jackson alone (DESIGN §4): no class under
 * {@code dev.mcpx.client} refers to Spring Boot or to the auto-configuration. Checked on the
 * compiled classes' constant pools, where every referenced type is named.
 */
class CoreBoundaryTest {

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

	private static List<Path> coreClasses() throws IOException, URISyntaxException {
		Path root = Path.of(McpClient.class.getProtectionDomain().getCodeSource().getLocation().toURI())
			.resolve("dev/mcpx/client");
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter((file) -> file.toString().endsWith(".class")).toList();
		}
	}

}
