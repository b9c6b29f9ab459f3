package dev.mcpx.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.unit.DataSize;

import dev.mcpx.autoconfigure.actuate.McpxHealthSettings;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.recovery.ProcessRestartPolicy;
import dev.mcpx.client.recovery.RecoveryPolicy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults an IDE shows for {@code mcpx.defaults.*} and {@code mcpx.health.*} (the
 * generated configuration metadata) are the defaults the client core declares: the
 * properties hold no default of their own, so the two cannot drift apart unnoticed.
 */
class McpxPropertiesMetadataTest {

	private final Map<String, JsonNode> metadata = metadata();

	@Test
	void connectionDefaultsAreTheBuilders() {
		assertThat(duration("mcpx.defaults.request-timeout")).isEqualTo(McpClientBuilder.DEFAULT_REQUEST_TIMEOUT);
		assertThat(duration("mcpx.defaults.connect-timeout")).isEqualTo(McpClientBuilder.DEFAULT_CONNECT_TIMEOUT);
		assertThat(duration("mcpx.defaults.handshake-timeout")).isEqualTo(McpClientBuilder.DEFAULT_HANDSHAKE_TIMEOUT);
		assertThat(duration("mcpx.defaults.catalogue-ttl")).isEqualTo(McpClientBuilder.DEFAULT_CATALOGUE_TTL);
		assertThat(DataSize.parse(text("mcpx.defaults.max-message-size")).toBytes())
			.isEqualTo(McpClientBuilder.DEFAULT_MAX_MESSAGE_BYTES);
		assertThat(text("mcpx.defaults.protocol")).isEqualTo("auto");
	}

	@Test
	void recoveryDefaultsAreThePolicys() {
		RecoveryPolicy policy = RecoveryPolicy.ofDefaults();
		assertThat(bool("mcpx.defaults.recovery.session-expiry.enabled")).isEqualTo(policy.sessionExpiry());
		assertThat(bool("mcpx.defaults.recovery.session-expiry.on-bad-request")).isEqualTo(policy.expiryOnBadRequest());
		assertThat(bool("mcpx.defaults.recovery.broken-stream.enabled")).isEqualTo(policy.brokenStream());
		assertThat(this.metadata.get("mcpx.defaults.recovery.broken-stream.resumption-attempts").path("defaultValue")
			.asInt()).isEqualTo(policy.resumptionAttempts());
		assertThat(bool("mcpx.defaults.recovery.trust-annotations")).isEqualTo(policy.trustAnnotations());
	}

	@Test
	void restartDefaultsAreTheRestartPolicys() {
		ProcessRestartPolicy policy = ProcessRestartPolicy.ofDefaults();
		assertThat(duration("mcpx.defaults.restart.initial-backoff")).isEqualTo(policy.initialBackoff());
		assertThat(duration("mcpx.defaults.restart.max-backoff")).isEqualTo(policy.maxBackoff());
		assertThat(this.metadata.get("mcpx.defaults.restart.max-restarts").path("defaultValue").asInt())
			.isEqualTo(policy.maxRestarts());
		assertThat(duration("mcpx.defaults.restart.window")).isEqualTo(policy.window());
		assertThat(duration("mcpx.defaults.restart.cool-down")).isEqualTo(policy.coolDown());
	}

	@Test
	void healthDefaultsAreTheHealthSettings() {
		McpxHealthSettings defaults = McpxHealthSettings.defaults();
		assertThat(bool("mcpx.health.probe")).isEqualTo(defaults.probe());
		assertThat(duration("mcpx.health.probe-interval")).isEqualTo(defaults.probeInterval());
		assertThat(duration("mcpx.health.timeout")).isEqualTo(defaults.timeout());
		assertThat(this.metadata.get("mcpx.health.down-after-failures").path("defaultValue").asInt())
			.isEqualTo(defaults.downAfterFailures());
		assertThat(McpxHealthSettings.of(new McpxProperties().getHealth())).isEqualTo(defaults);
	}

	@Test
	void everyPropertyOfAnUpstreamHasADescription() {
		assertThat(this.metadata).allSatisfy((name, property) -> {
			if (name.startsWith("mcpx.defaults.") || name.startsWith("mcpx.health.")) {
				assertThat(property.path("description").asString("")).as(name).isNotBlank();
			}
		});
	}

	private Duration duration(String name) {
		return DurationStyle.detectAndParse(text(name));
	}

	private String text(String name) {
		assertThat(this.metadata).containsKey(name);
		return this.metadata.get(name).path("defaultValue").asString();
	}

	private boolean bool(String name) {
		assertThat(this.metadata).containsKey(name);
		return this.metadata.get(name).path("defaultValue").asBoolean();
	}

	private static Map<String, JsonNode> metadata() {
		try (InputStream in = McpxPropertiesMetadataTest.class
			.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("the generated configuration metadata").isNotNull();
			Map<String, JsonNode> properties = new HashMap<>();
			for (JsonNode property : JsonMapper.shared().readTree(in).path("properties")) {
				properties.put(property.path("name").asString(), property);
			}
			return properties;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
