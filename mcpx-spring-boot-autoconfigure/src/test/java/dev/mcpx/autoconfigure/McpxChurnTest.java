package dev.mcpx.autoconfigure;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import com.sun.management.UnixOperatingSystemMXBean;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import dev.mcpx.autoconfigure.actuate.McpxHealthContributor;
import dev.mcpx.autoconfigure.actuate.McpxHealthContributorAutoConfiguration;
import dev.mcpx.autoconfigure.actuate.McpxMetricsAutoConfiguration;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.testsupport.JavaSdkServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Churn: adding 1,000 upstreams while the application runs, calling some, and removing them
 * all again leaves no more client threads, open file descriptors (connections), meters or
 * reachable clients than before (docs/architecture.md, "The live registry"). Counts only;
 * the waits are generous bounds for threads and sockets that end after their idle time.
 */
class McpxChurnTest {

	private static final int UPSTREAMS = 1000;

	private static final int CALLED = 100;

	/** Threads end after their idle time (5 s); pooled sockets after the idle release (30 s). */
	private static final Duration SETTLE = Duration.ofSeconds(120);

	private static JavaSdkServer server;

	@BeforeAll
	static void start() {
		server = JavaSdkServer.start();
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void addingAThousandUpstreamsAndRemovingThemLeavesNothingBehind() {
		MeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
					McpxMetricsAutoConfiguration.class, McpxHealthContributorAutoConfiguration.class))
			.withBean(MeterRegistry.class, () -> meters)
			.withBean(ObservationRegistry.class, () -> observations)
			// every health check pings: the probe's pool, sized at start, follows the live set
			.withPropertyValues("mcpx.clients.kept.url=" + server.url(), "mcpx.health.probe=true",
					"mcpx.health.probe-interval=0s")
			.run((context) -> {
				McpClients clients = context.getBean(McpClients.class);
				McpxHealthContributor health = context.getBean(McpxHealthContributor.class);
				// one upstream added, called and removed first, so that what lives as long as the
				// application (the shared HTTP client's lease holder, Boot's request factory) is there
				churn(clients, health, 1, 1);
				clients.get("kept").ping();
				int meterBaseline = meters.getMeters().size();
				long threadBaseline = clientThreads();
				long fdBaseline = openFileDescriptors();
				int initializes = server.initializeCount();
				int pings = server.requestCount("ping");

				List<WeakReference<McpClient>> removed = churn(clients, health, UPSTREAMS, CALLED);

				assertThat(server.initializeCount() - initializes).isEqualTo(CALLED);
				// each called upstream was also checked, and its check pinged it
				assertThat(server.requestCount("ping") - pings).isGreaterThanOrEqualTo(CALLED);
				assertThat(server.deleteCount()).isEqualTo(CALLED + 1);
				assertThat(clients.names()).containsExactly("kept");
				assertThat(health.stream()).hasSize(1);
				assertThat(meters.getMeters()).hasSize(meterBaseline);
				assertThat(settles(() -> removed.stream().allMatch((ref) -> ref.get() == null)))
					.as("every removed client is unreachable").isTrue();
				assertThat(settles(() -> clientThreads() <= threadBaseline))
					.as("client threads: %s, before: %s", clientThreads(), threadBaseline).isTrue();
				assertThat(settles(() -> openFileDescriptors() <= fdBaseline))
					.as("open file descriptors: %s, before: %s", openFileDescriptors(), fdBaseline).isTrue();
				clients.get("kept").ping();
			});
	}

	/**
	 * Adds the upstreams, calls the first ones concurrently and checks their health (a ping each, on the probe's
	 * pool), removes them all and waits until closed.
	 */
	private static List<WeakReference<McpClient>> churn(McpClients clients, McpxHealthContributor health, int count,
			int called) throws Exception {
		List<WeakReference<McpClient>> refs = new ArrayList<>();
		List<McpClient> added = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			McpClient client = clients.add("churn-" + i, URI.create(server.url()), (builder) -> {
			});
			refs.add(new WeakReference<>(client));
			if (i < called) {
				added.add(client);
			}
		}
		ExecutorService callers = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> calls = new ArrayList<>();
			for (McpClient client : added) {
				calls.add(callers.submit(() -> client.callTool("echo", Map.of("text", client.name()))));
			}
			for (McpClient client : added) {
				calls.add(callers.submit(() -> assertThat(
						((HealthIndicator) health.getContributor(client.name())).health().getStatus())
					.isEqualTo(Status.UP)));
			}
			for (Future<?> call : calls) {
				call.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			callers.shutdown();
		}
		added.clear();
		List<CompletableFuture<Void>> closing = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			closing.add(clients.remove("churn-" + i));
		}
		CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
		return refs;
	}

	/** The client side's threads: mcpx's own and the JDK HTTP client's. */
	private static long clientThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("mcpx-") || name.startsWith("HttpClient"))
			.count();
	}

	private static long openFileDescriptors() {
		return ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getOpenFileDescriptorCount();
	}

	private static boolean settles(BooleanSupplier condition) {
		long deadline = System.nanoTime() + SETTLE.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			System.gc();
			try {
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return false;
			}
		}
		return true;
	}

}
