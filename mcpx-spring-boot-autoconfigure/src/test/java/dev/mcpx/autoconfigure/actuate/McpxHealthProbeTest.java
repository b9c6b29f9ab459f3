package dev.mcpx.autoconfigure.actuate;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpTransportException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe's bound and its sharing of a ping in flight, with a client whose ping the test
 * holds or fails.
 */
class McpxHealthProbeTest {

	private final McpxHealthProbe probe = new McpxHealthProbe(Duration.ofMillis(200), 1);

	private final AtomicInteger pings = new AtomicInteger();

	private final Map<String, AtomicInteger> pingsOf = new ConcurrentHashMap<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void closeProbe() {
		this.release.countDown();
		this.probe.close();
	}

	@Test
	void aPingThatOutlivesTheTimeoutIsSharedByTheNextChecksNotStartedAgain() {
		McpClient hung = client(() -> await(this.release));

		for (int check = 0; check < 3; check++) {
			long started = System.nanoTime();
			assertThat(this.probe.ping(hung)).isEqualTo(McpxHealthProbe.Outcome.TIMED_OUT);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1000));
		}
		assertThat(this.pings).hasValue(1);

		this.release.countDown();
		assertThat(this.probe.ping(hung)).isEqualTo(McpxHealthProbe.Outcome.ANSWERED);
		int answered = this.pings.get();
		assertThat(this.probe.ping(hung)).isEqualTo(McpxHealthProbe.Outcome.ANSWERED);
		assertThat(this.pings).as("a finished ping is not reused").hasValue(answered + 1);
	}

	@Test
	void aFailedPingIsTheOutcomeNotAnException() {
		McpTransportException refused = new McpTransportException("slow", "could not reach the upstream", null);
		McpClient failing = client(() -> {
			throw refused;
		});

		assertThat(this.probe.ping(failing)).isEqualTo(new McpxHealthProbe.Outcome(false, refused));
	}

	@Test
	void afterCloseAPingFailsWithoutBlocking() {
		this.probe.close();

		McpxHealthProbe.Outcome outcome = this.probe.ping(client(() -> {
		}));

		assertThat(outcome.timedOut()).isFalse();
		assertThat(outcome.failure()).isNotNull();
	}

	@Test
	void aPoolSizedAtStartFollowsTheLiveSetSoAnUpstreamAddedLaterIsNotQueuedBehindAHungOne() {
		McpClient hung = client(() -> await(this.release));
		McpClient added = client("added", () -> {
		});
		assertThat(this.probe.ping(hung)).isEqualTo(McpxHealthProbe.Outcome.TIMED_OUT);
		// sized for the one upstream of startup: the added upstream's ping waits behind the hung one
		assertThat(this.probe.ping(added)).isEqualTo(McpxHealthProbe.Outcome.TIMED_OUT);

		this.probe.fit(2);

		assertThat(this.probe.ping(added)).isEqualTo(McpxHealthProbe.Outcome.ANSWERED);
		assertThat(this.pingsOf.get("slow")).as("the hung ping runs once, never started again").hasValue(1);
		// the added upstream's queued ping runs once the pool grows; whether it has finished (and
		// is forgotten) before the next check asks is the scheduler's draw: one ping or two
		assertThat(this.pingsOf.get("added").get()).as("the added upstream's pings").isBetween(1, 2);
		this.probe.fit(1);
		this.release.countDown();
		assertThat(this.probe.ping(hung)).isEqualTo(McpxHealthProbe.Outcome.ANSWERED);
	}

	private McpClient client(Runnable ping) {
		return client("slow", ping);
	}

	private McpClient client(String name, Runnable ping) {
		return (McpClient) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { McpClient.class },
				(proxy, method, args) -> switch (method.getName()) {
					case "name" -> name;
					case "ping" -> {
						this.pings.incrementAndGet();
						this.pingsOf.computeIfAbsent(name, (key) -> new AtomicInteger()).incrementAndGet();
						ping.run();
						yield null;
					}
					default -> throw new UnsupportedOperationException(method.getName());
				});
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
