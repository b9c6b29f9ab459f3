package dev.mcpx.autoconfigure.tasks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.mcpx.client.McpTaskRecord;
import dev.mcpx.client.McpTaskStore;
import dev.mcpx.client.error.McpTaskLostException;
import dev.mcpx.client.error.McpTransportException;
import dev.mcpx.client.event.McpTaskCompletedEvent;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Content;
import dev.mcpx.client.model.McpTaskStatus;
import dev.mcpx.client.model.ProtocolEra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the resumption of orphaned tasks promises on a shared journal: each orphan followed by one replica and its
 * outcome published once, leases taken over from a replica that died, a task past its TTL or unknown to the server
 * ended as lost, an upstream that is down leaving the task for later, a journal that is down never thrown at the
 * application. The following itself is scripted here (which task, how it ends); against real servers it is the
 * client's resumption of a task.
 */
abstract class TaskJournalResumerContract {

	static final String TABLE = "MCPX_TASKS_RESUME";

	private final List<TaskJournalResumer> started = new ArrayList<>();

	protected abstract DataSource dataSource();

	@BeforeEach
	void freshTable() {
		JdbcClient.create(dataSource()).sql("DROP TABLE IF EXISTS " + TABLE).update();
		new TaskJournalSchemaInitializer(dataSource(), TABLE, McpxTasksProperties.SchemaInitialization.ALWAYS)
			.initializeDatabase();
	}

	@AfterEach
	void stopResumers() {
		this.started.forEach(TaskJournalResumer::halt);
	}

	JdbcMcpTaskStore replica(Duration lease) {
		return new JdbcMcpTaskStore(dataSource(), TABLE, lease, null, false);
	}

	/** Tasks left by a process that died: created, held under a lease that has passed. */
	List<McpTaskRecord> orphans(int count, Duration ttl) {
		JdbcMcpTaskStore dead = replica(Duration.ofSeconds(30));
		Instant created = Instant.now().minusSeconds(60);
		List<McpTaskRecord> rows = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			McpTaskRecord row = McpTaskRecord.created("weather", "task-" + i, "delete_city", ProtocolEra.LEGACY,
					McpTaskStatus.WORKING, McpTaskRecord.argumentsHash("{}"), created, dead.owner(),
					created.plusSeconds(30)).withTiming(ttl, Duration.ofSeconds(1));
			dead.create(row);
			rows.add(row);
		}
		return rows;
	}

	TaskJournalResumer resumer(McpTaskStore store, TaskJournalResumer.TaskFollowing following,
			Queue<McpTaskCompletedEvent> events, Duration interval) {
		TaskJournalResumer resumer = new TaskJournalResumer(store, () -> Set.of("weather"), following, events::add,
				interval, Clock.systemUTC());
		this.started.add(resumer);
		return resumer;
	}

	static CallToolResult result(String text) {
		return new CallToolResult(List.of(new Content.Text(text)), null, false);
	}

	@Test
	void aLeaseRenewalWhileAnOutcomeIsPublishedNeitherCancelsNorInterruptsItsListeners() {
		orphans(1, Duration.ofMinutes(10));
		List<Boolean> interrupted = new java.util.concurrent.CopyOnWriteArrayList<>();
		TaskJournalResumer[] resumer = new TaskJournalResumer[1];
		resumer[0] = new TaskJournalResumer(replica(Duration.ofSeconds(30)), () -> Set.of("weather"),
				(task, bound) -> CompletableFuture.completedFuture(result("done")), (event) -> {
					// the lease timer fires while the application hears the outcome: its row has just ended
					resumer[0].renewLeases();
					interrupted.add(Thread.currentThread().isInterrupted());
				}, Duration.ofHours(1), Clock.systemUTC());
		this.started.add(resumer[0]);
		resumer[0].start();
		await().atMost(Duration.ofSeconds(30)).until(() -> !interrupted.isEmpty());
		assertThat(interrupted).containsExactly(false);
		assertThat(resumer[0].followedTasks()).isZero();
	}

	@Test
	void twoReplicasFollowEachOf50OrphansOnceAndPublishEachOutcomeOnce() {
		orphans(50, Duration.ofMinutes(10));
		Map<String, AtomicInteger> followed = new ConcurrentHashMap<>();
		Map<String, String> followedBy = new ConcurrentHashMap<>();
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		List<TaskJournalResumer> replicas = new ArrayList<>();
		for (String name : List.of("a", "b")) {
			replicas.add(resumer(replica(Duration.ofSeconds(30)), (task, bound) -> {
				followed.computeIfAbsent(task.taskId(), (id) -> new AtomicInteger()).incrementAndGet();
				followedBy.put(task.taskId(), name);
				sleep(20);
				return CompletableFuture.completedFuture(result("done " + task.taskId()));
			}, events, Duration.ofMillis(100)));
		}
		replicas.forEach(TaskJournalResumer::start);
		await().atMost(Duration.ofSeconds(60)).until(() -> events.size() >= 50);
		sleep(500);
		assertThat(events).hasSize(50);
		assertThat(events).extracting(McpTaskCompletedEvent::taskId).doesNotHaveDuplicates();
		assertThat(events).allSatisfy((event) -> {
			assertThat(event.status()).isEqualTo(McpTaskStatus.COMPLETED);
			assertThat(event.resumedAfterRestart()).isTrue();
			assertThat(event.result()).isNotNull();
			assertThat(event.result().text()).isEqualTo("done " + event.taskId());
		});
		assertThat(followed).hasSize(50).allSatisfy((id, count) -> assertThat(count.get()).as(id).isOne());
		assertThat(Set.copyOf(followedBy.values())).as("both replicas took a share").containsExactlyInAnyOrder("a", "b");
		assertThat(replica(Duration.ofSeconds(30)).unfinished("weather")).isEmpty();
	}

	@Test
	void whenTheReplicaFollowingTasksDiesAnotherTakesOverItsLeasesAndPublishesEachOnce() {
		orphans(10, Duration.ofMinutes(10));
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		CountDownLatch allTaken = new CountDownLatch(10);
		TaskJournalResumer dying = resumer(replica(Duration.ofSeconds(2)), (task, bound) -> {
			allTaken.countDown();
			return new CompletableFuture<>(); // a task that never ends
		}, events, Duration.ofMillis(100));
		dying.start();
		assertThat(taken(allTaken)).as("the first replica took every task").isTrue();
		dying.halt();
		Map<String, AtomicInteger> followed = new ConcurrentHashMap<>();
		TaskJournalResumer survivor = resumer(replica(Duration.ofSeconds(2)), (task, bound) -> {
			followed.computeIfAbsent(task.taskId(), (id) -> new AtomicInteger()).incrementAndGet();
			return CompletableFuture.completedFuture(result("finished"));
		}, events, Duration.ofMillis(200));
		survivor.start();
		await().atMost(Duration.ofSeconds(30)).until(() -> events.size() >= 10);
		sleep(500);
		assertThat(events).hasSize(10).extracting(McpTaskCompletedEvent::taskId).doesNotHaveDuplicates();
		assertThat(followed).hasSize(10).allSatisfy((id, count) -> assertThat(count.get()).isOne());
	}

	@Test
	void tasksFollowedAtOnceHoldNoThreadWhileTheyWaitForTheirOutcome() {
		orphans(TaskJournalResumer.MAX_FOLLOWED, Duration.ofMinutes(10));
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		CountDownLatch allTaken = new CountDownLatch(TaskJournalResumer.MAX_FOLLOWED);
		TaskJournalResumer resumer = resumer(replica(Duration.ofSeconds(30)), (task, bound) -> {
			allTaken.countDown();
			return new CompletableFuture<>(); // outcomes that have not come yet
		}, events, Duration.ofMillis(100));
		resumer.start();
		assertThat(taken(allTaken)).isTrue();
		assertThat(resumer.followedTasks()).isEqualTo(TaskJournalResumer.MAX_FOLLOWED);
		long followingThreads = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("mcpx-task-follow") && thread.isAlive())
			.count();
		assertThat(followingThreads).as("threads of the resumers that take tasks up")
			.isLessThanOrEqualTo(TaskJournalResumer.RESUMING_THREADS);
		assertThat(events).isEmpty();
	}

	@Test
	void aTaskWhoseTtlPassedIsEndedAsLostWithoutAskingTheServer() {
		orphans(1, Duration.ofSeconds(5));
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		AtomicInteger asked = new AtomicInteger();
		resumer(replica(Duration.ofSeconds(30)), (task, bound) -> {
			asked.incrementAndGet();
			return CompletableFuture.completedFuture(result("unexpected"));
		}, events, Duration.ofMillis(100)).start();
		await().atMost(Duration.ofSeconds(20)).until(() -> !events.isEmpty());
		assertThat(events).singleElement().satisfies((event) -> {
			assertThat(event.status()).isEqualTo(McpTaskStatus.LOST);
			assertThat(event.failure()).isInstanceOf(McpTaskLostException.class);
			assertThat(event.failure().getMessage()).contains("task-0", "TTL");
		});
		assertThat(asked).hasValue(0);
		assertThat(replica(Duration.ofSeconds(30)).find("weather", "task-0")).get()
			.extracting(McpTaskRecord::status)
			.isEqualTo(McpTaskStatus.LOST);
	}

	@Test
	void aTaskTheServerNoLongerKnowsIsEndedAsLostOnceAndAFailedToolAsFailed() {
		orphans(2, Duration.ofMinutes(10));
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		resumer(replica(Duration.ofSeconds(30)), (task, bound) -> {
			if (task.taskId().equals("task-0")) {
				throw new McpTaskLostException("weather", task.taskId(), task.tool(), "-32602 Task not found", null);
			}
			return CompletableFuture
				.completedFuture(new CallToolResult(List.of(new Content.Text("city not found")), null, true));
		}, events, Duration.ofMillis(100)).start();
		await().atMost(Duration.ofSeconds(20)).until(() -> events.size() >= 2);
		sleep(300);
		Map<String, McpTaskStatus> statuses = events.stream()
			.collect(Collectors.toMap(McpTaskCompletedEvent::taskId, McpTaskCompletedEvent::status));
		assertThat(statuses).containsExactlyInAnyOrderEntriesOf(
				Map.of("task-0", McpTaskStatus.LOST, "task-1", McpTaskStatus.FAILED));
	}

	@Test
	void aTaskWhoseUpstreamIsDownIsLeftForALaterScanAndNotEnded() {
		orphans(1, Duration.ofMinutes(10));
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		AtomicInteger attempts = new AtomicInteger();
		resumer(replica(Duration.ofSeconds(30)), (task, bound) -> {
			if (attempts.incrementAndGet() < 3) {
				throw new McpTransportException("weather", "connection refused", new java.net.ConnectException("refused"));
			}
			return CompletableFuture.completedFuture(result("at last"));
		}, events, Duration.ofMillis(100)).start();
		await().atMost(Duration.ofSeconds(20)).until(() -> !events.isEmpty());
		sleep(300);
		assertThat(attempts).hasValue(3);
		assertThat(events).singleElement().extracting(McpTaskCompletedEvent::status).isEqualTo(McpTaskStatus.COMPLETED);
	}

	@Test
	void aJournalThatIsDownIsCountedAndNeverThrown() {
		McpTaskStore broken = new JdbcMcpTaskStore(dataSource(), "MCPX_NO_TABLE_" + UUID.randomUUID().toString()
			.substring(0, 8)
			.toUpperCase(), Duration.ofSeconds(30), null, false);
		Queue<McpTaskCompletedEvent> events = new ConcurrentLinkedQueue<>();
		TaskJournalResumer resumer = resumer(broken, (task, bound) -> CompletableFuture.completedFuture(result("never")),
				events, Duration.ofMillis(50));
		resumer.start();
		await().atMost(Duration.ofSeconds(20)).until(() -> resumer.journalFailures() >= 2);
		assertThat(resumer.lastJournalFailure()).isNotNull();
		assertThat(events).isEmpty();
		assertThat(resumer.followedTasks()).isZero();
	}

	static boolean taken(CountDownLatch latch) {
		try {
			return latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new McpTransportException("weather", "interrupted", ex);
		}
	}

}
