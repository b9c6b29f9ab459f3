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

	private static List<Path> coreClasses() throws IOException, URISyntaxException {
		Path root = Path.of(McpClient.class.getProtectionDomain().getCodeSource().getLocation().toURI())
			.resolve("dev/mcpx/client");
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter((file) -> file.toString().endsWith(".class")).toList();
		}
	}

}
