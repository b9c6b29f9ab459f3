package dev.mcpx.autoconfigure.tasks;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.mcpx.client.McpTaskStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an IDE shows for {@code mcpx.tasks.*} (the generated configuration metadata): every property described, and
 * the lease's default the journal's own.
 */
class McpxTasksPropertiesMetadataTest {

	@Test
	void everyTaskPropertyIsDescribedWithItsDefault() throws IOException {
		Map<String, JsonNode> metadata = new HashMap<>();
		try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).isNotNull();
			for (JsonNode property : JsonMapper.shared().readTree(in).path("properties")) {
				metadata.put(property.path("name").asString(), property);
			}
		}
		assertThat(metadata).containsKeys("mcpx.tasks.store", "mcpx.tasks.store-arguments", "mcpx.tasks.lease",
				"mcpx.tasks.resume-interval", "mcpx.tasks.jdbc.table-name", "mcpx.tasks.jdbc.initialize-schema",
				"mcpx.tasks.jdbc.encryption-key");
		assertThat(metadata).allSatisfy((name, property) -> {
			if (name.startsWith("mcpx.tasks.")) {
				assertThat(property.path("description").asString("")).as(name).isNotBlank();
			}
		});
		assertThat(DurationStyle.detectAndParse(metadata.get("mcpx.tasks.lease").path("defaultValue").asString()))
			.isEqualTo(McpTaskStore.DEFAULT_LEASE);
		assertThat(DurationStyle.detectAndParse(metadata.get("mcpx.tasks.resume-interval").path("defaultValue").asString()))
			.isEqualTo(Duration.ofSeconds(10));
		assertThat(metadata.get("mcpx.tasks.jdbc.table-name").path("defaultValue").asString()).isEqualTo("MCPX_TASKS");
	}

}
