package dev.mcpx.autoconfigure.discovery;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;

import dev.mcpx.autoconfigure.McpxProperties;
import dev.mcpx.autoconfigure.McpxUpstreams;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpClientsListener;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.McpUpstreamChangedEvent;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Cause;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Change;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A registry that flaps as fast as it is read: the only instance of a service found by its
 * metadata is listed at one read and gone at the next, a thousand times, while a caller keeps
 * calling whatever client is live. Every read is applied in order (the upstream is added and
 * removed each time), the set converges with the registry's last answer, every session a removed
 * client opened is ended, and the client that stays costs one initialize. Complements
 * {@code DiscoveryRefreshEurekaTest}, whose real registry is read once a second. Counted on the
 * official Java SDK server.
 */
class McpxDiscoveryFlappingTest {

	private static final int FLAPS = 1000;

	private final JavaSdkServer server = JavaSdkServer.start();

	private final McpClients registry = new McpClients(List.of());

	@AfterEach
	void close() {
		this.registry.close();
		this.server.close();
	}

	@Test
	void aServiceFlappingAThousandTimesConvergesAndLeavesNoSessionBehind() throws Exception {
		McpxProperties properties = new McpxProperties();
		properties.getDiscovery().setEnabled(true);
		FlappingRegistry flapping = new FlappingRegistry(URI.create(this.server.url()));
		List<McpUpstreamChangedEvent> changes = new CopyOnWriteArrayList<>();
		this.registry.addListener(new McpClientsListener() {
			@Override
			public void changed(McpUpstreamChangedEvent event) {
				changes.add(event);
			}
		});
		McpxDiscovery discovery = new McpxDiscovery(flapping, new McpxUpstreams(properties, null),
				(settings, service) -> McpClient.builder(settings.name(), service)
					.protocol(ProtocolMode.LEGACY)
					.requestTimeout(Duration.ofSeconds(20))
					.build(),
				this.registry, (event) -> {
				});
		AtomicBoolean stop = new AtomicBoolean();
		AtomicInteger answered = new AtomicInteger();
		ConcurrentLinkedQueue<Throwable> untyped = new ConcurrentLinkedQueue<>();
		Thread caller = new Thread(() -> {
			while (!stop.get()) {
				this.registry.find("flappy").ifPresent((client) -> {
					try {
						client.callTool("echo", Map.of("text", "f"));
						answered.incrementAndGet();
					}
					catch (McpException ex) {
						// typed: the upstream left meanwhile
					}
					catch (Throwable ex) {
						untyped.add(ex);
					}
				});
			}
		});
		caller.start();
		try {
			for (int i = 0; i < FLAPS; i++) {
				flapping.listed = (i % 2 == 0);
				discovery.refresh();
			}
		}
		finally {
			stop.set(true);
			caller.join(60_000);
		}
		flapping.listed = true;
		discovery.refresh();

		assertThat(untyped).isEmpty();
		assertThat(changes).allSatisfy((event) -> {
			assertThat(event.upstream()).isEqualTo("flappy");
			assertThat(event.cause()).isEqualTo(Cause.DISCOVERY);
		});
		// every read applied, in order: added at each listing, removed at each absence
		assertThat(changes).filteredOn((event) -> event.change() == Change.ADDED).hasSize(FLAPS / 2 + 1);
		assertThat(changes).filteredOn((event) -> event.change() == Change.REMOVED).hasSize(FLAPS / 2);
		assertThat(changes).noneMatch((event) -> event.change() == Change.REPLACED);
		assertThat(this.registry.names()).containsExactly("flappy");
		// each removed client that opened a session ended it (DELETE, once its calls drained)
		long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
		while (this.server.deleteCount() < this.server.initializeCount() && System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
		assertThat(this.server.deleteCount()).isEqualTo(this.server.initializeCount());
		int initializes = this.server.initializeCount();
		McpClient converged = this.registry.get("flappy");
		for (int i = 0; i < 3; i++) {
			assertThat(converged.callTool("echo", Map.of("text", "c" + i)).text()).isEqualTo("c" + i);
		}
		assertThat(this.server.initializeCount() - initializes).isEqualTo(1);
		assertThat(this.server.executions("echo")).isEqualTo(answered.get() + 3);
	}

	/** One service, {@code flappy}, whose one instance is listed or not, as the test says. */
	private static final class FlappingRegistry implements DiscoveryClient {

		private final ServiceInstance instance;

		volatile boolean listed;

		FlappingRegistry(URI endpoint) {
			this.instance = new DefaultServiceInstance("flappy-1", "flappy", endpoint.getHost(), endpoint.getPort(),
					false, Map.of(DiscoveredService.PATH_METADATA, endpoint.getPath()));
		}

		@Override
		public String description() {
			return "flapping";
		}

		@Override
		public List<ServiceInstance> getInstances(String serviceId) {
			return (this.listed && serviceId.equals("flappy")) ? List.of(this.instance) : List.of();
		}

		@Override
		public List<String> getServices() {
			return this.listed ? List.of("flappy") : List.of();
		}

	}

}
