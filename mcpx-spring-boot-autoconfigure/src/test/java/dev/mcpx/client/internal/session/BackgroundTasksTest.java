package dev.mcpx.client.internal.session;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The background work of a client: advisory work beyond the queue's bound is dropped, work
 * that must not be lost (re-subscribing in a new session) runs anyway.
 */
class BackgroundTasksTest {

	/** The queue's bound, as {@code BackgroundTasks} declares it. */
	private static final int QUEUE = 256;

	@Test
	void essentialWorkRunsWhenTheQueueIsFullAndAdvisoryWorkBeyondItIsDropped() throws Exception {
		try (BackgroundTasks tasks = new BackgroundTasks("full")) {
			CountDownLatch release = new CountDownLatch(1);
			CountDownLatch blocking = new CountDownLatch(1);
			tasks.execute(() -> {
				blocking.countDown();
				await(release);
			});
			assertThat(blocking.await(10, TimeUnit.SECONDS)).isTrue();
			AtomicInteger advisoryRan = new AtomicInteger();
			for (int i = 0; i < QUEUE + 10; i++) {
				tasks.execute(advisoryRan::incrementAndGet);
			}
			CountDownLatch essentialRan = new CountDownLatch(1);
			tasks.executeEssential(essentialRan::countDown);
			// it ran while the one background thread was still blocked
			assertThat(essentialRan.await(10, TimeUnit.SECONDS)).isTrue();
			release.countDown();
			CountDownLatch drained = new CountDownLatch(1);
			long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (advisoryRan.get() < QUEUE && System.nanoTime() < until) {
				Thread.sleep(5);
			}
			tasks.execute(drained::countDown);
			assertThat(drained.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(advisoryRan.get()).isEqualTo(QUEUE);
		}
	}

	@Test
	void essentialWorkIsNotStartedOnceTheClientIsClosed() throws Exception {
		BackgroundTasks tasks = new BackgroundTasks("closed");
		tasks.close();
		CountDownLatch ran = new CountDownLatch(1);
		tasks.executeEssential(ran::countDown);
		assertThat(ran.await(200, TimeUnit.MILLISECONDS)).isFalse();
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
