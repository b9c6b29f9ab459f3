package dev.mcpx.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring binding stands on the client's public API alone (docs/architecture.md,
 * "Layers"): no class under {@code dev.mcpx.autoconfigure} refers to
 * {@code dev.mcpx.client.internal}, checked on the compiled classes' constant pools, where
 * every referenced type is named.
 */
class AutoConfigurationBoundaryTest {

	@Test
	void theAutoConfigurationReferencesNoInternalClassOfTheClient() throws Exception {
		Path root = Path.of(McpxAutoConfiguration.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		List<Path> classes;
		try (Stream<Path> files = Files.walk(root.resolve("dev/mcpx/autoconfigure"))) {
			classes = files.filter((file) -> file.toString().endsWith(".class")).toList();
		}
		assertThat(classes).as("compiled auto-configuration classes").hasSizeGreaterThan(20);
		for (Path type : classes) {
			String constants = new String(Files.readAllBytes(type), StandardCharsets.ISO_8859_1);
			assertThat(constants).as(root.relativize(type).toString()).doesNotContain("dev/mcpx/client/internal");
		}
	}

}
