package dev.mcpx.chaos;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.testsupport.NodePeer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a closed client still holds (docs/security.md: threads and open connections return
 * to their starting level after close), seen from both ends: its {@code mcpx-*} threads in
 * this JVM, and the MCP connections the official TypeScript servers still see open.
 */
class CloseReleasesResourcesTest {

	private static final Duration PATIENCE = Duration.ofSeconds(5);

	private static NodePeer legacy;

	private static NodePeer modern;

	@BeforeAll
	static void startPeers() {
		legacy = NodePeer.start(NodePeer.LEGACY);
		modern = NodePeer.start(NodePeer.MODERN);
	}

	@AfterAll
	static void stopPeers() {
		legacy.close();
		modern.close();
	}

	private static NodePeer peer(ProtocolMode mode) {
		return (mode == ProtocolMode.LEGACY) ? legacy : modern;
	}

	/** Calls from 8 threads at once, so the client holds several pooled connections. */
	private static void busy(McpClient client) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> calls = new ArrayList<>();
			for (int i = 0; i < 160; i++) {
				String text = "t" + i;
				calls.add(pool.submit(() -> client.callTool("echo", Map.of("text", text))));
			}
			for (Future<?> call : calls) {
				call.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	private static McpClient client(ProtocolMode mode) {
		return McpClient.builder("close-" + mode.name().toLowerCase(java.util.Locale.ROOT),
				URI.create(peer(mode).url()))
			.protocol(mode)
			.requestTimeout(Duration.ofSeconds(10))
			.build();
	}

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void closeEndsEveryClientThread(ProtocolMode mode) throws Exception {
		Set<String> before = LeakChecks.mcpxThreads();
		McpClient client = client(mode);
		busy(client);

		client.close();

		assertThat(LeakChecks.leakedMcpxThreads(before, LeakChecks.THREAD_GRACE)).isEmpty();
	}

	/** Today's guarantee: the connections go once the closed client is garbage. */
	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	void aClosedAndCollectedClientHoldsNoConnection(ProtocolMode mode) throws Exception {
		useAndClose(mode);
		System.gc();

		assertThat(awaitOpen(peer(mode), Duration.ofSeconds(10))).as("open MCP connections after close and GC")
			.isZero();
	}

	private static void useAndClose(ProtocolMode mode) throws Exception {
		McpClient client = client(mode);
		busy(client);
		client.close();
	}

	@ParameterizedTest
	@EnumSource(value = ProtocolMode.class, names = { "LEGACY", "MODERN" })
	// The JDK HttpClient can be closed from Java 21 on, and close() then closes it; on Java 17
	// its pooled connections and selector thread last until it is garbage-collected.
	@EnabledForJreRange(min = JRE.JAVA_21)
	void closeReleasesEveryConnectionAtOnce(ProtocolMode mode) throws Exception {
		McpClient client = client(mode);
		busy(client);
		assertThat(peer(mode).openMcpConnections()).as("open MCP connections while in use").isPositive();

		client.close();

		assertThat(awaitOpen(peer(mode), PATIENCE)).as("open MCP connections %s s after close()",
				PATIENCE.toSeconds()).isZero();
	}

	private static int awaitOpen(NodePeer peer, Duration patience) throws InterruptedException {
		long deadline = System.nanoTime() + patience.toNanos();
		int open = peer.openMcpConnections();
		while (open > 0 && System.nanoTime() < deadline) {
			Thread.sleep(200);
			open = peer.openMcpConnections();
		}
		return open;
	}

}
