package dev.mcpx.client;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.mcpx.client.error.McpTaskStoreException;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What every {@link McpTaskStore} promises, run against each implementation: rows by key, updates only by the
 * holder, an ended row ended once, claims of orphans atomic among replicas, leases renewed and released.
 * Subclasses give two stores on the same journal (two replicas).
 */
public abstract class McpTaskStoreContract {

	protected static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");

	/**
	 * A store on the journal every call of this test shares; each call is another replica (another owner).
	 * @param lease the lease
	 * @return a store
	 */
	protected abstract McpTaskStore replica(Duration lease);

	protected McpTaskRecord task(McpTaskStore store, String id, Instant now) {
		return McpTaskRecord.created("weather", id, "delete_city", ProtocolEra.LEGACY, McpTaskStatus.WORKING,
				McpTaskRecord.argumentsHash("{\"city\":\"Oslo\"}"), now, store.owner(), now.plus(store.lease()));
	}

	@Test
	void aCreatedRowIsFoundAsWrittenWithEveryColumn() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		McpTaskRecord row = task(store, "t-1", T0).withTiming(Duration.ofMinutes(5), Duration.ofMillis(1500))
			.withArguments("{\"city\":\"Oslo\"}")
			.withSession(new McpTaskRecord.BoundSession("session-0123456789abcdef", "2025-11-25",
					"{\"tasks\":{\"requests\":{\"tools\":{\"call\":{}}}}}"));
		store.create(row);
		assertThat(store.find("weather", "t-1")).contains(row);
		assertThat(store.find("weather", "t-2")).isEmpty();
		assertThat(store.find("other", "t-1")).isEmpty();
	}

	@Test
	void aTaskIdIsJournalledOncePerUpstream() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		store.create(task(store, "t-1", T0));
		assertThatExceptionOfType(McpTaskStoreException.class).isThrownBy(() -> store.create(task(store, "t-1", T0)))
			.withMessageContaining("t-1");
	}

	@Test
	void anUpdateIsWrittenOnlyByTheHolderAndAnEndedRowIsEndedOnce() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		McpTaskStore other = replica(Duration.ofSeconds(30));
		McpTaskRecord row = task(store, "t-1", T0);
		store.create(row);
		McpTaskRecord input = row.withStatus(McpTaskStatus.INPUT_REQUIRED, "which city?", T0.plusSeconds(1));
		assertThat(store.update(input)).isTrue();
		assertThat(store.find("weather", "t-1")).contains(input);
		assertThat(other.update(input.withStatus(McpTaskStatus.WORKING, null, T0.plusSeconds(2)))).isFalse();
		McpTaskRecord done = input.withOutcome(McpTaskStatus.COMPLETED, null, "{\"content\":[]}", T0.plusSeconds(3));
		assertThat(store.update(done)).isTrue();
		assertThat(store.update(done)).as("an ended row is ended once").isFalse();
		assertThat(store.find("weather", "t-1")).contains(done);
		assertThat(store.update(task(store, "never-created", T0))).isFalse();
	}

	@Test
	void aRowHeldUnderALiveLeaseIsNotClaimedAndOneWhoseLeasePassedIsClaimedByOneReplica() {
		McpTaskStore dead = replica(Duration.ofSeconds(30));
		McpTaskStore a = replica(Duration.ofSeconds(30));
		McpTaskStore b = replica(Duration.ofSeconds(30));
		dead.create(task(dead, "t-1", T0));
		assertThat(a.claim(Set.of("weather"), T0.plusSeconds(29), 10)).isEmpty();
		List<McpTaskRecord> claimed = a.claim(Set.of("weather"), T0.plusSeconds(31), 10);
		assertThat(claimed).singleElement().satisfies((row) -> {
			assertThat(row.owner()).isEqualTo(a.owner());
			assertThat(row.leaseExpiresAt()).isEqualTo(T0.plusSeconds(61));
		});
		assertThat(b.claim(Set.of("weather"), T0.plusSeconds(31), 10)).isEmpty();
		assertThat(dead.update(task(dead, "t-1", T0).withStatus(McpTaskStatus.WORKING, "late", T0.plusSeconds(32))))
			.as("the dead owner lost the row").isFalse();
		assertThat(dead.renew("weather", "t-1", T0.plusSeconds(32))).isFalse();
	}

	@Test
	void claimsLeaveEndedRowsOtherUpstreamsAndTheLimit() {
		McpTaskStore dead = replica(Duration.ofSeconds(30));
		McpTaskStore a = replica(Duration.ofSeconds(30));
		for (int i = 0; i < 5; i++) {
			dead.create(task(dead, "t-" + i, T0));
		}
		dead.create(McpTaskRecord.created("elsewhere", "x-1", "tool", ProtocolEra.MODERN, McpTaskStatus.WORKING,
				"00", T0, dead.owner(), T0.plusSeconds(30)));
		McpTaskRecord ended = task(dead, "t-0", T0).withOutcome(McpTaskStatus.FAILED, "boom", null, T0);
		assertThat(dead.update(ended)).isTrue();
		List<McpTaskRecord> first = a.claim(Set.of("weather"), T0.plusSeconds(60), 3);
		List<McpTaskRecord> second = a.claim(Set.of("weather"), T0.plusSeconds(60), 3);
		assertThat(first).hasSize(3);
		assertThat(second).hasSize(1);
		assertThat(first).extracting(McpTaskRecord::taskId).doesNotContain("t-0").doesNotHaveDuplicates();
		assertThat(second).extracting(McpTaskRecord::taskId).doesNotContainAnyElementsOf(
				first.stream().map(McpTaskRecord::taskId).toList());
	}

	@Test
	void aRenewedLeaseKeepsTheRowAndAReleasedOneIsClaimableAtOnce() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		McpTaskStore other = replica(Duration.ofSeconds(30));
		store.create(task(store, "t-1", T0));
		assertThat(store.renew("weather", "t-1", T0.plusSeconds(20))).isTrue();
		assertThat(other.claim(Set.of("weather"), T0.plusSeconds(40), 10)).isEmpty();
		assertThat(store.find("weather", "t-1")).get()
			.extracting(McpTaskRecord::leaseExpiresAt)
			.isEqualTo(T0.plusSeconds(50));
		store.release("weather", "t-1");
		assertThat(other.claim(Set.of("weather"), T0.plusSeconds(41), 10)).singleElement()
			.extracting(McpTaskRecord::owner)
			.isEqualTo(other.owner());
	}

	@Test
	void unfinishedListsTheOpenTasksOfOneUpstreamOldestFirst() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		store.create(task(store, "late", T0.plusSeconds(5)));
		store.create(task(store, "early", T0));
		McpTaskRecord gone = task(store, "gone", T0.minusSeconds(5));
		store.create(gone);
		store.update(gone.withOutcome(McpTaskStatus.LOST, null, null, T0));
		assertThat(store.unfinished("weather")).extracting(McpTaskRecord::taskId).containsExactly("early", "late");
		assertThat(store.unfinished("elsewhere")).isEmpty();
	}

	@Test
	void purgeDeletesOnlyRowsThatEndedBeforeTheTime() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		McpTaskRecord old = task(store, "old", T0);
		McpTaskRecord recent = task(store, "recent", T0);
		store.create(old);
		store.create(recent);
		store.create(task(store, "open", T0));
		store.update(old.withOutcome(McpTaskStatus.COMPLETED, null, "{}", T0.plusSeconds(1)));
		store.update(recent.withOutcome(McpTaskStatus.CANCELLED, null, "{}", T0.plusSeconds(100)));
		assertThat(store.purge(T0.plusSeconds(50))).isEqualTo(1);
		assertThat(store.find("weather", "old")).isEmpty();
		assertThat(store.find("weather", "recent")).isPresent();
		assertThat(store.find("weather", "open")).isPresent();
	}

	@Test
	void replicasClaimingConcurrentlyTakeEachOrphanExactlyOnce() throws Exception {
		McpTaskStore dead = replica(Duration.ofSeconds(30));
		int orphans = 50;
		for (int i = 0; i < orphans; i++) {
			dead.create(task(dead, "o-" + i, T0));
		}
		int replicas = 4;
		List<McpTaskStore> stores = new ArrayList<>();
		for (int i = 0; i < replicas; i++) {
			stores.add(replica(Duration.ofSeconds(30)));
		}
		Set<String> seen = ConcurrentHashMap.newKeySet();
		List<String> all = Collections.synchronizedList(new ArrayList<>());
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService pool = Executors.newFixedThreadPool(replicas);
		try {
			List<Future<?>> runs = new ArrayList<>();
			for (McpTaskStore store : stores) {
				runs.add(pool.submit(() -> {
					start.await();
					List<McpTaskRecord> batch;
					do {
						batch = store.claim(Set.of("weather"), T0.plusSeconds(60), 7);
						for (McpTaskRecord row : batch) {
							assertThat(row.owner()).isEqualTo(store.owner());
							seen.add(row.taskId());
							all.add(row.taskId());
						}
					}
					while (!batch.isEmpty());
					return null;
				}));
			}
			start.countDown();
			for (Future<?> run : runs) {
				run.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(all).hasSize(orphans);
		assertThat(seen).hasSize(orphans);
	}

	@Test
	void theExpiryOfATaskIsItsCreationPlusItsTtl() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		McpTaskRecord row = task(store, "t", T0).withTiming(Duration.ofSeconds(60), null);
		assertThat(row.expired(T0.plusSeconds(60))).isFalse();
		assertThat(row.expired(T0.plusSeconds(61))).isTrue();
		assertThat(task(store, "u", T0).expired(T0.plus(Duration.ofDays(3650)))).isFalse();
	}

	@Test
	void aRowShowsItsSessionRedacted() {
		McpTaskStore store = replica(Duration.ofSeconds(30));
		McpTaskRecord row = task(store, "t", T0).withSession(
				new McpTaskRecord.BoundSession("secret-session-0123456789", "2025-11-25", "{}"))
			.withArguments("{\"password\":\"hunter2\"}");
		assertThat(row.toString()).doesNotContain("secret-session-0123456789", "hunter2").contains("secr…");
	}

}
