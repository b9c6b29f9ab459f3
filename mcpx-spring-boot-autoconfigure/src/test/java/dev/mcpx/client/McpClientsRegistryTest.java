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
