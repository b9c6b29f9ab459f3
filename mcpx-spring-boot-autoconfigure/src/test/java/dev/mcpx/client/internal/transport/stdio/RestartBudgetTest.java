package dev.mcpx.client.internal.transport.stdio;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.recovery.ProcessRestartPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The restart budget of a stdio upstream, on an injected clock.
 */
class RestartBudgetTest {

	private final MutableClock clock = new MutableClock();

	private final ProcessRestartPolicy policy = ProcessRestartPolicy.custom()
		.initialBackoff(Duration.ofMillis(100))
		.maxBackoff(Duration.ofMillis(500))
		.maxRestarts(4)
		.window(Duration.ofMinutes(1))
		.coolDown(Duration.ofMinutes(2))
		.build();

	private final RestartBudget budget = new RestartBudget(this.policy, this.clock);

	@Test
	void theFirstStartWaitsNothingAndEachCrashInARowDoublesTheBackoffUpToTheMaximum() throws Exception {
		assertThat(this.budget.admit(null)).isZero();
		assertThat(this.budget.admit(Duration.ofMillis(5))).isEqualTo(Duration.ofMillis(100));
		assertThat(this.budget.admit(Duration.ofMillis(5))).isEqualTo(Duration.ofMillis(200));
		assertThat(this.budget.admit(Duration.ofMillis(5))).isEqualTo(Duration.ofMillis(400));
		assertThat(this.budget.admit(Duration.ofMillis(5))).isEqualTo(Duration.ofMillis(500));
		assertThat(this.budget.restarts()).isEqualTo(4);
	}

	@Test
	void pastTheBudgetWithinTheWindowTheUpstreamIsDownUntilTheCoolDownEnds() throws Exception {
		this.budget.admit(null);
		for (int i = 0; i < 4; i++) {
			this.budget.admit(Duration.ZERO);
		}
		Instant now = this.clock.instant();
		assertThatExceptionOfType(RestartBudget.Exhausted.class).isThrownBy(() -> this.budget.admit(Duration.ZERO))
			.satisfies((ex) -> assertThat(ex.downUntil()).isEqualTo(now.plus(Duration.ofMinutes(2))))
			.withMessageContaining("4 times within 60 s");
		this.clock.advance(Duration.ofMinutes(1));
		assertThatExceptionOfType(RestartBudget.Exhausted.class).isThrownBy(() -> this.budget.admit(Duration.ZERO));
		assertThat(this.budget.downUntil()).isNotNull();
		this.clock.advance(Duration.ofMinutes(1));
		assertThat(this.budget.downUntil()).isNull();
		assertThat(this.budget.admit(Duration.ZERO)).isEqualTo(Duration.ofMillis(100));
	}

	@Test
	void restartsOlderThanTheWindowNoLongerCount() throws Exception {
		this.budget.admit(null);
		for (int i = 0; i < 4; i++) {
			this.budget.admit(Duration.ZERO);
		}
		this.clock.advance(Duration.ofSeconds(61));
		// A process that ran a whole window ends the series: the backoff starts again.
		assertThat(this.budget.admit(Duration.ofSeconds(61))).isEqualTo(Duration.ofMillis(100));
	}

	private static final class MutableClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
