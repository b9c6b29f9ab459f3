package dev.mcpx.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.mcpx.autoconfigure.McpUpstreamSettings.SpringAi;
import dev.mcpx.autoconfigure.McpUpstreamSettings.Transport;
import dev.mcpx.autoconfigure.McpxProperties.SpringAi.Expose;
import dev.mcpx.client.McpClientBuilder;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.recovery.RecoveryPolicy;
import dev.mcpx.client.recovery.TaskAugmentation;

/**
 * Collects one upstream's settings while they are resolved; starts from the client's
 * built-in defaults.
 */
final class UpstreamSettingsBuilder {

	final String name;

	@Nullable Transport transport;

	ProtocolMode protocol = ProtocolMode.AUTO;

	Duration requestTimeout = McpClientBuilder.DEFAULT_REQUEST_TIMEOUT;

	Duration connectTimeout = McpClientBuilder.DEFAULT_CONNECT_TIMEOUT;

	Duration handshakeTimeout = McpClientBuilder.DEFAULT_HANDSHAKE_TIMEOUT;

	int maxMessageBytes = McpClientBuilder.DEFAULT_MAX_MESSAGE_BYTES;

	Duration catalogueTtl = McpClientBuilder.DEFAULT_CATALOGUE_TTL;

	boolean listenForChanges = true;

	@Nullable Duration keepaliveInterval;

	@Nullable String serverLogLevel;

	RecoveryPolicy recoveryPolicy = RecoveryPolicy.ofDefaults();

	SpringAi springAi = new SpringAi("", Expose.ALL, List.of(), List.of());

	TaskAugmentation taskAugmentation = TaskAugmentation.UNSAFE;

	final Map<String, String> origins = new HashMap<>();

	UpstreamSettingsBuilder(String name) {
		this.name = name;
	}

	UpstreamSettingsBuilder transport(Transport transport) {
		this.transport = transport;
		return this;
	}

	UpstreamSettingsBuilder protocol(ProtocolMode protocol) {
		this.protocol = protocol;
		return this;
	}

	UpstreamSettingsBuilder requestTimeout(Duration requestTimeout) {
		this.requestTimeout = requestTimeout;
		return this;
	}

	/** Of an upstream not declared, for its listing bound (an HTTP upstream's is on its {@link McpUpstreamSettings.Http}). */
	UpstreamSettingsBuilder connectTimeout(Duration connectTimeout) {
		this.connectTimeout = connectTimeout;
		return this;
	}

	UpstreamSettingsBuilder handshakeTimeout(Duration handshakeTimeout) {
		this.handshakeTimeout = handshakeTimeout;
		return this;
	}

	UpstreamSettingsBuilder maxMessageBytes(int maxMessageBytes) {
		this.maxMessageBytes = maxMessageBytes;
		return this;
	}

	UpstreamSettingsBuilder catalogueTtl(Duration catalogueTtl) {
		this.catalogueTtl = catalogueTtl;
		return this;
	}

	UpstreamSettingsBuilder listenForChanges(boolean listenForChanges) {
		this.listenForChanges = listenForChanges;
		return this;
	}

	UpstreamSettingsBuilder keepaliveInterval(Duration keepaliveInterval) {
		this.keepaliveInterval = keepaliveInterval;
		return this;
	}

	UpstreamSettingsBuilder serverLogLevel(String serverLogLevel) {
		this.serverLogLevel = serverLogLevel;
		return this;
	}

	UpstreamSettingsBuilder recoveryPolicy(RecoveryPolicy recoveryPolicy) {
		this.recoveryPolicy = recoveryPolicy;
		return this;
	}

	UpstreamSettingsBuilder springAi(SpringAi springAi) {
		this.springAi = springAi;
		return this;
	}

	UpstreamSettingsBuilder taskAugmentation(TaskAugmentation taskAugmentation) {
		this.taskAugmentation = taskAugmentation;
		return this;
	}

	/** The value of the setting {@code key} came from {@code property}. */
	UpstreamSettingsBuilder origin(String key, String property) {
		this.origins.put(key, property);
		return this;
	}

	McpUpstreamSettings build() {
		return new McpUpstreamSettings(this);
	}

}
