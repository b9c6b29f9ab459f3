package dev.mcpx.client;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.mcpx.client.error.McpClientClosedException;
import dev.mcpx.client.event.McpUpstreamChangedEvent;
import dev.mcpx.client.event.McpUpstreamChangedEvent.Cause;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.testsupport.JavaSdkServer;
import dev.mcpx.testsupport.StdioPeer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link McpClients} as a live registry: upstreams added, replaced and removed while the
 * application runs, against the official MCP Java SDK server, counting what the server
 * executed (docs/architecture.md, "The live registry").
 */
class McpClientsRegistryTest {

	private static final int CALLERS = 16;

	private final List<AutoCloseable> closing = new ArrayList<>();

	@AfterEach
	void closeAll() throws Exception {
		for (AutoCloseable c : this.closing) {
			c.close();
		}
	}

	private JavaSdkServer server(long toolMillis) {
		JavaSdkServer server = JavaSdkServer.start((spec) -> spec.tool("slow", JavaSdkServer.idempotent(), (args) -> {
			sleep(toolMillis);
			return "done";
		}));
		this.closing.add(server);
		return server;
	}

	private McpClients registry() {
		McpClients clients = new McpClients(List.of());
		this.closing.add(clients);
		return clients;
	}

	@Test
	void removingAnUpstreamWhileSixteenThreadsCallItDrainsTheCallsInFlightAndRefusesTheRest() throws Exception {
		JavaSdkServer server = server(200);
		McpClients clients = registry();
		McpClient client = clients.add("work", URI.create(server.url()), (b) -> b.requestTimeout(Duration.ofSeconds(20)));
		client.listTools(); // the session is open before the callers start
		ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
		AtomicInteger results = new AtomicInteger();
		List<Throwable> refusals = new CopyOnWriteArrayList<>();
		List<Throwable> others = new CopyOnWriteArrayList<>();
		CountDownLatch started = new CountDownLatch(CALLERS);
		List<Future<?>> running = new ArrayList<>();
		try {
			for (int i = 0; i < CALLERS; i++) {
				running.add(callers.submit(() -> {
					started.countDown();
					while (true) {
						try {
							CallToolResult result = client.callTool("slow", Map.of());
							assertThat(result.isError()).isFalse();
							results.incrementAndGet();
						}
						catch (McpClientClosedException ex) {
							refusals.add(ex);
							return;
						}
						catch (Throwable ex) {
							others.add(ex);
							return;
						}
					}
				}));
			}
			started.await(10, TimeUnit.SECONDS);
			// calls are in flight on the server when the upstream is removed
			awaitExecutions(server, CALLERS);

			var closed = clients.remove("work");

			for (Future<?> caller : running) {
				caller.get(30, TimeUnit.SECONDS); // none hangs
			}
			closed.get(30, TimeUnit.SECONDS);
		}
		finally {
			callers.shutdownNow();
		}
		assertThat(others).isEmpty();
		assertThat(refusals).hasSize(CALLERS).allSatisfy((ex) -> {
			assertThat(((McpClientClosedException) ex).upstream()).isEqualTo("work");
			assertThat(ex.getMessage()).contains("work").contains("removed").contains("not sent");
		});
		// every execution the server ran reached its caller: calls in flight were not cut
		assertThat(server.executions("slow")).isEqualTo(results.get()).isGreaterThanOrEqualTo(CALLERS);
		// then the client closed as at shutdown: its session ended with one DELETE
		assertThat(server.deleteCount()).isEqualTo(1);
		assertThat(clients.names()).isEmpty();
		assertThatThrownBy(() -> clients.get("work")).isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("work");
		int calls = server.requestCount("tools/call");
		assertThatThrownBy(() -> client.callTool("slow", Map.of())).isInstanceOf(McpClientClosedException.class);
		assertThat(server.requestCount("tools/call")).isEqualTo(calls);
	}

	@Test
	void anIdleUpstreamIsClosedWhenItIsRemoved() throws Exception {
		JavaSdkServer server = server(0);
		McpClients clients = registry();
		clients.add("idle", URI.create(server.url()), (b) -> {
		}).ping();

		clients.remove("idle").get(10, TimeUnit.SECONDS);

		assertThat(server.deleteCount()).isEqualTo(1);
		assertThat(clients.find("idle")).isEmpty();
		assertThat(clients.remove("idle")).isDone();
	}

	@Test
	void aReplacedUpstreamTakesNewCallsOnItsNewClientWhileTheOldOneDrains() throws Exception {
		JavaSdkServer first = server(0);
		JavaSdkServer second = server(0);
		McpClients clients = registry();
		McpClient old = clients.add("svc", URI.create(first.url()), (b) -> {
		});
		old.callTool("slow", Map.of());
		List<String> heard = new CopyOnWriteArrayList<>();
		clients.addListener(recording(heard));

		McpClient current = clients.add("svc", URI.create(second.url()), (b) -> {
		});
		current.callTool("slow", Map.of());
		clients.get("svc").callTool("slow", Map.of());

		assertThat(current).isNotSameAs(old).isSameAs(clients.get("svc"));
		assertThat(heard).containsExactly("replaced:svc");
		assertThat(first.executions("slow")).isEqualTo(1);
		assertThat(second.executions("slow")).isEqualTo(2);
		assertThat(first.deleteCount()).isEqualTo(1);
		assertThatThrownBy(() -> old.callTool("slow", Map.of())).isInstanceOf(McpClientClosedException.class)
			.hasMessageContaining("replaced");
		assertThat(first.executions("slow")).isEqualTo(1);
	}

	@Test
	void listenersHearAdditionsReplacementsAndRemovalsInOrderAndOneThatThrowsChangesNothing() throws Exception {
		JavaSdkServer server = server(0);
		McpClients clients = registry();
		List<String> heard = new CopyOnWriteArrayList<>();
		clients.addListener(new McpClientsListener() {
			@Override
			public void added(McpClient client) {
				throw new IllegalStateException("listener failure");
			}
		});
		clients.addListener(recording(heard));

		clients.add("a", URI.create(server.url()), (b) -> {
		});
		clients.add("b", URI.create(server.url()), (b) -> {
		});
		clients.add("a", URI.create(server.url()), (b) -> {
		});
		clients.remove("b").get(10, TimeUnit.SECONDS);
		clients.remove("nothing").get(10, TimeUnit.SECONDS);

		assertThat(heard).containsExactly("added:a", "added:b", "replaced:a", "removed:b");
		assertThat(clients.names()).containsExactly("a");
	}

	@Test
	void aConfiguredUpstreamWinsOverOneAddedUnderTheSameName() throws Exception {
		JavaSdkServer configuredServer = server(0);
		JavaSdkServer addedServer = server(0);
		McpClient configured = McpClient.builder("docs", URI.create(configuredServer.url())).build();
		McpClients clients = new McpClients(List.of(configured));
		this.closing.add(clients);
		List<String> heard = new CopyOnWriteArrayList<>();
		clients.addListener(recording(heard));

		McpClient answer = clients.add("docs", URI.create(addedServer.url()), (b) -> {
		});
		answer.callTool("slow", Map.of());

		assertThat(answer).isSameAs(configured).isSameAs(clients.get("docs"));
		assertThat(clients.isConfigured("docs")).isTrue();
		assertThat(heard).isEmpty();
		assertThat(configuredServer.executions("slow")).isEqualTo(1);
		assertThat(addedServer.initializeCount()).isZero();
	}

	@Test
	void aConfiguredUpstreamMayBeReplacedByTheConfigurationItself() throws Exception {
		JavaSdkServer server = server(0);
		McpClient configured = McpClient.builder("docs", URI.create(server.url())).build();
		McpClients clients = new McpClients(List.of(configured));
		this.closing.add(clients);

		McpClient refreshed = clients
			.addConfigured(McpClient.builder("docs", URI.create(server.url())).requestTimeout(Duration.ofSeconds(3)).build());

		assertThat(clients.get("docs")).isSameAs(refreshed).isNotSameAs(configured);
		assertThat(clients.isConfigured("docs")).isTrue();
		assertThatThrownBy(configured::ping).isInstanceOf(McpClientClosedException.class);
	}

	@Test
	void nothingIsAddedOnceTheRegistryIsClosed() throws Exception {
		JavaSdkServer server = server(0);
		McpClients clients = registry();
		clients.close();

		assertThatThrownBy(() -> clients.add("late", URI.create(server.url()), (b) -> {
		})).isInstanceOf(IllegalStateException.class).hasMessageContaining("late");
		assertThat(server.initializeCount()).isZero();
	}

	@Test
	void aRemovedStdioUpstreamFinishesItsCallInFlightThenStopsItsServerProcess(@TempDir Path dir) throws Exception {
		Path log = dir.resolve("stdio.log");
		McpClients clients = registry();
		McpClient client = clients.add("local", StdioPeer.command(log), (b) -> b.requestTimeout(Duration.ofSeconds(20)));
		client.ping();
		long pid = StdioPeer.lastPid(log);
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> inFlight = caller
				.submit(() -> client.callTool("slow_read", Map.of("key", "k", "ms", 1500)));
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
			while (StdioPeer.executions(log, "slow_read") < 1 && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}

			var closed = clients.remove("local");

			assertThat(inFlight.get(30, TimeUnit.SECONDS).text()).isEqualTo("value k");
			closed.get(30, TimeUnit.SECONDS);
		}
		finally {
			caller.shutdownNow();
		}
		assertThat(StdioPeer.alive(pid)).isFalse();
		assertThat(StdioPeer.starts(log)).isEqualTo(1);
		assertThat(StdioPeer.executions(log, "slow_read")).isEqualTo(1);
		assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid))
			.doesNotContain(pid);
	}

	@Test
	void eachChangeOfTheLiveSetIsAnEventSayingWhatChangedAndWhyWithoutSecrets() throws Exception {
		JavaSdkServer server = server(0);
		McpClients clients = registry();
		List<McpUpstreamChangedEvent> heard = new CopyOnWriteArrayList<>();
		clients.addListener(new McpClientsListener() {
			@Override
			public void changed(McpUpstreamChangedEvent event) {
				heard.add(event);
			}
		});
		URI withSecretQuery = URI.create(server.url() + "?api_key=q-secret-1");

		clients.add("api", withSecretQuery, (b) -> b.header("Authorization", "Bearer h-secret-2")).ping();
		clients.add("api", URI.create(server.url()), (b) -> {
		});
		clients.add(McpClient.builder("found", URI.create(server.url())).build(), Cause.DISCOVERY);
		clients.addConfigured(McpClient.builder("conf", URI.create(server.url())).build());
		clients.remove("found", Cause.DISCOVERY).get(10, TimeUnit.SECONDS);
		clients.remove("conf", Cause.REFRESH).get(10, TimeUnit.SECONDS);
		clients.remove("api").get(10, TimeUnit.SECONDS);

		assertThat(heard).extracting((e) -> e.upstream() + ":" + e.change() + ":" + e.cause())
			.containsExactly("api:ADDED:API", "api:REPLACED:API", "found:ADDED:DISCOVERY", "conf:ADDED:REFRESH",
					"found:REMOVED:DISCOVERY", "conf:REMOVED:REFRESH", "api:REMOVED:API");
		assertThat(heard).allSatisfy((event) -> {
			assertThat(event.url()).isEqualTo(server.url());
			assertThat(event.toString()).doesNotContain("q-secret-1").doesNotContain("h-secret-2")
				.doesNotContain("api_key");
		});
		// the first client's session ran on the server, with its header; none of it is in an event
		assertThat(server.initializeCount()).isEqualTo(1);
	}

	@Test
	void aRefusedAdditionIsNoChangeAndTellsNoListener() throws Exception {
		JavaSdkServer server = server(0);
		McpClient configured = McpClient.builder("docs", URI.create(server.url())).build();
		McpClients clients = new McpClients(List.of(configured));
		this.closing.add(clients);
		List<McpUpstreamChangedEvent> heard = new CopyOnWriteArrayList<>();
		clients.addListener(new McpClientsListener() {
			@Override
			public void changed(McpUpstreamChangedEvent event) {
				heard.add(event);
			}
		});
		McpClient discovered = McpClient.builder("docs", URI.create(server.url())).build();

		assertThat(clients.add(discovered, Cause.DISCOVERY)).isSameAs(configured);

		assertThat(heard).isEmpty();
		assertThatThrownBy(discovered::ping).isInstanceOf(McpClientClosedException.class);
		assertThat(server.initializeCount()).isZero();
	}

	@Test
	void aReplicatedUpstreamAddedWithItsSettingsGetsThePreparationAndKeepsItsSessionOnOneInstance()
			throws Exception {
		JavaSdkServer one = server(0);
		JavaSdkServer two = server(0);
		List<String> prepared = new CopyOnWriteArrayList<>();
		McpClients clients = new McpClients(List.of(), new McpClients.Preparation() {
			@Override
			public void beforeSettings(String name, McpClientBuilder builder) {
				prepared.add("before:" + name);
				builder.requestTimeout(Duration.ofSeconds(1));
			}

			@Override
			public void afterSettings(String name, McpClientBuilder builder) {
				prepared.add("after:" + name);
			}
		});
		this.closing.add(clients);
		McpEndpoints endpoints = McpEndpoints.of(List.of(URI.create(one.url()), URI.create(two.url())));

		McpClient client = clients.add("replicated", endpoints, (b) -> {
			prepared.add("settings");
			b.requestTimeout(Duration.ofSeconds(20));
		});
		for (int i = 0; i < 4; i++) {
			assertThat(client.callTool("slow", Map.of()).isError()).isFalse();
		}

		assertThat(prepared).containsExactly("before:replicated", "settings", "after:replicated");
		assertThat(clients.get("replicated")).isSameAs(client);
		// legacy era: one session, pinned to the instance its initialize went to
		assertThat(one.initializeCount() + two.initializeCount()).isEqualTo(1);
		assertThat(one.executions("slow") + two.executions("slow")).isEqualTo(4);
		assertThat(Math.max(one.executions("slow"), two.executions("slow"))).isEqualTo(4);
		// the status shows the upstream, not a secret
		assertThat(client.status().upstream()).isEqualTo("replicated");
	}

	@Test
	void aReplicatedUpstreamAddedUnderAConfiguredNameIsRefusedAndItsInstancesAreNeverContacted() throws Exception {
		JavaSdkServer configuredServer = server(0);
		JavaSdkServer replica = server(0);
		McpClient configured = McpClient.builder("docs", URI.create(configuredServer.url())).build();
		McpClients clients = new McpClients(List.of(configured));
		this.closing.add(clients);
		List<String> heard = new CopyOnWriteArrayList<>();
		clients.addListener(recording(heard));

		McpClient answer = clients.add("docs", McpEndpoints.of(List.of(URI.create(replica.url()))), (b) -> {
		});
		answer.callTool("slow", Map.of());

		assertThat(answer).isSameAs(configured).isSameAs(clients.get("docs"));
		assertThat(clients.isConfigured("docs")).isTrue();
		assertThat(heard).isEmpty();
		assertThat(configuredServer.executions("slow")).isEqualTo(1);
		assertThat(replica.initializeCount()).isZero();
		assertThat(replica.requestCount("tools/call")).isZero();
	}

	@Test
	void aReplicatedUpstreamReplacesOneAddedBeforeUnderItsNameAndTheOldOneDrains() throws Exception {
		JavaSdkServer single = server(0);
		JavaSdkServer replica = server(0);
		McpClients clients = registry();
		McpClient old = clients.add("svc", URI.create(single.url()), (b) -> {
		});
		old.callTool("slow", Map.of());

		McpClient current = clients.add("svc", McpEndpoints.of(List.of(URI.create(replica.url()))), (b) -> {
		});
		current.callTool("slow", Map.of());

		assertThat(clients.get("svc")).isSameAs(current);
		assertThat(single.deleteCount()).isEqualTo(1);
		assertThat(replica.executions("slow")).isEqualTo(1);
		assertThatThrownBy(() -> old.callTool("slow", Map.of())).isInstanceOf(McpClientClosedException.class);
		assertThat(single.executions("slow")).isEqualTo(1);
	}

	@Test
	void aReplicatedUpstreamWithARefusedSettingIsNotAdded() throws Exception {
		JavaSdkServer replica = server(0);
		McpClients clients = registry();
		McpEndpoints endpoints = McpEndpoints.of(List.of(URI.create(replica.url())));

		assertThatThrownBy(() -> clients.add("bad", endpoints, (b) -> b.requestTimeout(Duration.ZERO)))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("must be positive");
		assertThat(clients.find("bad")).isEmpty();
		assertThat(replica.initializeCount()).isZero();
	}

	private static void awaitExecutions(JavaSdkServer server, int count) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
		while (server.executions("slow") < count && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
	}

	private static McpClientsListener recording(List<String> heard) {
		return new McpClientsListener() {
			@Override
			public void added(McpClient client) {
				heard.add("added:" + client.name());
			}

			@Override
			public void replaced(McpClient previous, McpClient current) {
				heard.add("replaced:" + current.name());
			}

			@Override
			public void removed(McpClient client) {
				heard.add("removed:" + client.name());
			}
		};
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
