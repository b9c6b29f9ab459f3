package dev.mcpx.client.protocol;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpSubscription;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.StdioCommand;
import dev.mcpx.client.error.McpStreamLostException;
import dev.mcpx.client.model.McpResourceUpdate;
import dev.mcpx.testsupport.NodePeer;
import dev.mcpx.testsupport.StdioPeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A modern-era subscription over stdio (2026-07-28 basic/patterns/subscriptions), against the
 * TypeScript SDK v2 {@code serveStdio} peer {@code modern-stdio-protocol-server.mjs}: the
 * {@code subscriptions/listen} request goes over the one channel, its resource's updates come
 * back, a closed subscription is cancelled with {@code notifications/cancelled}, and after the
 * server process exits the next process is asked again and the subscriber hears that updates may
 * have been missed.
 */
class ModernStdioSubscriptionTest {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@TempDir
	Path dir;

	@Test
	void aSubscriptionIsOpenedOnTheChannelAndAgainOnTheNextProcess() throws Exception {
		Path log = this.dir.resolve("peer.log");
		Path stdin = this.dir.resolve("stdin.log");
		StdioCommand command = new StdioCommand(StdioPeer.node(),
				List.of(NodePeer.nodeDirectory().resolve("modern-stdio-protocol-server.mjs").toString()),
				Map.of("MCPX_STDIO_LOG", log.toString(), "MCPX_STDIO_STDIN", stdin.toString()), null, true);
		List<McpResourceUpdate> updates = new CopyOnWriteArrayList<>();
		try (McpClient client = McpClient.stdio("modern-stdio", command)
			.protocol(ProtocolMode.MODERN)
			.requestTimeout(Duration.ofSeconds(15))
			.build()) {
			McpSubscription subscription = client.subscribe("demo://counter", updates::add);
			assertThat(StdioPeer.await(WAIT, () -> {
				client.callTool("touch", Map.of());
				return updates.contains(new McpResourceUpdate("demo://counter", false));
			})).as("an update on the subscription").isTrue();
			assertThat(read(stdin)).contains("subscriptions/listen").contains("\"resourceSubscriptions\":[\"demo://counter\"]");

			assertThatExceptionOfType(McpStreamLostException.class)
				.isThrownBy(() -> client.callTool("crash", Map.of()));
			updates.clear();
			client.callTool("touch", Map.of()); // runs on the next process
			assertThat(StdioPeer.await(WAIT, () -> updates.contains(new McpResourceUpdate("demo://counter", true))))
				.as("an update marked 'may have missed updates' on the next process").isTrue();
			assertThat(StdioPeer.await(WAIT, () -> {
				client.callTool("touch", Map.of());
				return updates.contains(new McpResourceUpdate("demo://counter", false));
			})).as("an update on the subscription opened on the next process").isTrue();
			assertThat(StdioPeer.starts(log)).isEqualTo(2);

			subscription.close();
			assertThat(StdioPeer.await(WAIT, () -> read(stdin).contains("notifications/cancelled")))
				.as("the closed subscription cancelled").isTrue();
		}
	}

	private static String read(Path file) {
		try {
			return Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

}
