package dev.mcpx.client.internal.transport;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The watchdog that bounds every exchange: a passed deadline interrupts the caller and
 * closes what it reads; a guard closed in time never fires; the timer thread exists only
 * while there is something to watch.
 */
@Timeout(30)
class WatchdogTest {

	private final Watchdog watchdog = new Watchdog("wd-test", Duration.ofMillis(200));

	@AfterEach
	void close() {
		this.watchdog.close();
		Thread.interrupted();
	}

	@Test
	void aPassedDeadlineInterruptsTheCallerAndTheGuardSaysSo() {
		Watchdog.Guard guard = this.watchdog.arm(Duration.ofMillis(50));
		boolean interrupted = false;
		try {
			Thread.sleep(10_000);
		}
		catch (InterruptedException ex) {
			interrupted = true;
		}
		assertThat(interrupted).isTrue();
		assertThat(guard.expired()).isTrue();
		guard.close();
		// the interrupt the deadline caused does not leak into the caller's later work
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(this.watchdog.armedCount()).isZero();
	}

	@Test
	void aPassedDeadlineClosesTheAttachedBodyEvenWhenAttachedAfterwards() throws Exception {
		AtomicInteger closes = new AtomicInteger();
		Watchdog.Guard guard = this.watchdog.arm(Duration.ofMillis(20));
		guard.attach(closes::incrementAndGet);
		// the owner is interrupted too, so it spins rather than waits; the body is closed
		// just after the guard reads expired
		long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (closes.get() == 0 && System.nanoTime() < giveUp) {
			Thread.onSpinWait();
		}
		assertThat(guard.expired()).isTrue();
		assertThat(closes).hasValue(1);

		AtomicInteger lateCloses = new AtomicInteger();
		Watchdog.Guard late = this.watchdog.arm(Duration.ofMillis(20));
		spinUntilExpired(late);
		Closeable body = lateCloses::incrementAndGet;
		late.attach(body);
		assertThat(lateCloses).hasValue(1);
		late.close();
		guard.close();
	}

	@Test
	void aGuardClosedInTimeNeverFires() throws Exception {
		for (int i = 0; i < 100; i++) {
			try (Watchdog.Guard guard = this.watchdog.arm(Duration.ofMillis(30))) {
				assertThat(guard.expired()).isFalse();
			}
		}
		Thread.sleep(150); // longer than every deadline above, plus ticks
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(this.watchdog.armedCount()).isZero();
	}

	@Test
	void manyThreadsArmingAndClosingLeaveNothingArmedAndNoStrayInterrupt() throws Exception {
		int threads = 16;
		int rounds = 5_000;
		AtomicInteger strayInterrupts = new AtomicInteger();
		AtomicInteger fired = new AtomicInteger();
		List<Thread> workers = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			boolean shortDeadlines = (t % 4 == 0);
			Thread worker = new Thread(() -> {
				for (int i = 0; i < rounds; i++) {
					Watchdog.Guard guard = this.watchdog.arm(shortDeadlines ? Duration.ofNanos(1) : Duration.ofSeconds(30));
					if (shortDeadlines && i % 500 == 0) {
						spinUntilExpired(guard);
					}
					if (guard.expired()) {
						fired.incrementAndGet();
					}
					guard.close();
					if (Thread.currentThread().isInterrupted()) {
						strayInterrupts.incrementAndGet();
						Thread.interrupted();
					}
				}
			});
			workers.add(worker);
			worker.start();
		}
		for (Thread worker : workers) {
			worker.join();
		}
		assertThat(strayInterrupts).hasValue(0);
		assertThat(fired.get()).isGreaterThanOrEqualTo(threads / 4 * (rounds / 500));
		assertThat(this.watchdog.armedCount()).isZero();
	}

	@Test
	void theTimerThreadEndsWhenIdleAndComesBackWhenNeeded() throws Exception {
		this.watchdog.arm(Duration.ofSeconds(30)).close();
		assertThat(watchdogThreads()).isEqualTo(1);
		await().atMost(Duration.ofSeconds(5)).until(() -> watchdogThreads() == 0);
		assertThat(this.watchdog.holdsThread()).as("an idle watchdog holds its ended thread").isFalse();

		Watchdog.Guard guard = this.watchdog.arm(Duration.ofMillis(20));
		spinUntilExpired(guard);
		assertThat(guard.expired()).isTrue();
		guard.close();
		assertThat(watchdogThreads()).isEqualTo(1);
		assertThat(this.watchdog.holdsThread()).isTrue();
	}

	@Test
	void closingEndsTheTimerThreadAndRefusesNewGuards() {
		this.watchdog.arm(Duration.ofSeconds(30)).close();
		this.watchdog.close();
		await().atMost(Duration.ofSeconds(5)).until(() -> watchdogThreads() == 0);
		assertThatIllegalStateException().isThrownBy(() -> this.watchdog.arm(Duration.ofSeconds(1)))
			.withMessageContaining("closed");
	}

	@Test
	void everyClientsWatchdogIsSweptByOneSharedThread() throws Exception {
		List<Watchdog> watchdogs = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			watchdogs.add(new Watchdog());
		}
		AtomicInteger fired = new AtomicInteger();
		CountDownLatch armed = new CountDownLatch(watchdogs.size());
		CountDownLatch counted = new CountDownLatch(1);
		List<Thread> callers = new ArrayList<>();
		try {
			for (int i = 0; i < watchdogs.size(); i++) {
				Watchdog watchdog = watchdogs.get(i);
				Duration timeout = Duration.ofMillis(20 + i);
				// one caller per client, as in an application: a guard belongs to its caller's thread
				Thread caller = new Thread(() -> {
					try (Watchdog.Guard guard = watchdog.arm(timeout)) {
						armed.countDown();
						spinUntilExpired(guard);
						if (guard.expired()) {
							fired.incrementAndGet();
						}
						counted.await(10, TimeUnit.SECONDS);
					}
					catch (InterruptedException ex) {
						// the deadline's interrupt: the guard's close clears it
					}
				});
				callers.add(caller);
				caller.start();
			}
			assertThat(armed.await(10, TimeUnit.SECONDS)).isTrue();
			await().atMost(Duration.ofSeconds(10)).until(() -> fired.get() == watchdogs.size());
			assertThat(threadsNamed("mcpx-watchdog")).isEqualTo(1);
			assertThat(watchdogs).allMatch(Watchdog::holdsThread);
		}
		finally {
			counted.countDown();
			for (Thread caller : callers) {
				caller.join(10_000);
			}
			watchdogs.forEach(Watchdog::close);
		}
	}

	@Test
	void aGuardArmedAsTheTimerLetsItsWatchdogGoIsStillSwept() throws Exception {
		// The timer lets a watchdog go one tick after its last guard closed; guards armed
		// around that moment must still fire.
		for (int round = 0; round < 200; round++) {
			this.watchdog.arm(Duration.ofSeconds(30)).close();
			Thread.sleep(round % 13);
			Watchdog.Guard guard = this.watchdog.arm(Duration.ofMillis(1));
			spinUntilExpired(guard);
			assertThat(guard.expired()).as("round %d", round).isTrue();
			guard.close();
			Thread.interrupted();
		}
	}

	private static void spinUntilExpired(Watchdog.Guard guard) {
		long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (!guard.expired() && System.nanoTime() < giveUp) {
			Thread.onSpinWait();
		}
	}

	private static long watchdogThreads() {
		return threadsNamed("mcpx-wd-test-watchdog");
	}

	private static long threadsNamed(String name) {
		return Thread.getAllStackTraces().keySet().stream()
			.filter((thread) -> thread.getName().equals(name) && thread.isAlive())
			.count();
	}

}
