package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.web.client.RestClient;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpHttpClients;
import dev.mcpx.client.ProtocolMode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.reply;
import static dev.mcpx.client.internal.transport.http.LoopbackUpstream.result;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstreams with equal HTTP settings share one JDK client, built on first use and released
 * with its last upstream (docs/architecture.md, "The transport seam"). Each test uses a
 * connect timeout no other test uses, so the process-wide holder's count of clients for
 * it moves only with this test's clients.
 */
class SharedHttpClientsTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final Set<String> liveSessions = ConcurrentHashMap.newKeySet();

	private final AtomicInteger calls = new AtomicInteger();

	private HttpServer first;

	private HttpServer second;

	@BeforeEach
	void start() throws IOException {
		this.first = server();
		this.second = server();
	}

	@AfterEach
	void stop() {
		this.first.stop(0);
		this.second.stop(0);
	}

	@Test
	void twoUpstreamsWithEqualSettingsShareOneClientBuiltOnFirstUse() {
		int before = SharedHttpClients.PROCESS.builtClients();
		McpClient a = client("a", this.first, Duration.ofMillis(4_101));
		McpClient b = client("b", this.second, Duration.ofMillis(4_101));
		try {
			assertThat(SharedHttpClients.PROCESS.builtClients()).as("clients built before first use")
				.isEqualTo(before);
			call(a);
			call(b);
			assertThat(SharedHttpClients.PROCESS.builtClients()).as("clients built for two upstreams")
				.isEqualTo(before + 1);
		}
		finally {
			a.close();
			b.close();
		}
		assertThat(SharedHttpClients.PROCESS.builtClients()).as("clients left after both closed").isEqualTo(before);
	}

	@Test
	void closingOneUpstreamLeavesTheOtherWorking() {
		int before = SharedHttpClients.PROCESS.builtClients();
		McpClient a = client("a", this.first, Duration.ofMillis(4_102));
		McpClient b = client("b", this.second, Duration.ofMillis(4_102));
		try {
			call(a);
			call(b);
			a.close();
			for (int i = 0; i < 5; i++) {
				call(b);
			}
			assertThat(SharedHttpClients.PROCESS.builtClients()).as("the client the other still uses")
				.isEqualTo(before + 1);
		}
		finally {
			a.close();
			b.close();
		}
		assertThat(SharedHttpClients.PROCESS.builtClients()).isEqualTo(before);
	}

	@Test
	void upstreamsWithDifferentSettingsDoNotShare() {
		int before = SharedHttpClients.PROCESS.builtClients();
		McpClient a = client("a", this.first, Duration.ofMillis(4_103));
		McpClient b = client("b", this.second, Duration.ofMillis(4_104));
		try {
			call(a);
			call(b);
			assertThat(SharedHttpClients.PROCESS.builtClients()).isEqualTo(before + 2);
		}
		finally {
			a.close();
			b.close();
		}
		assertThat(SharedHttpClients.PROCESS.builtClients()).isEqualTo(before);
	}

	/**
	 * An idle upstream holds no HTTP worker thread: the shared client's workers end after a
	 * few seconds without work, while the upstream stays open and usable (the JDK's default
	 * pool kept them a minute, a varying number after a burst).
	 */
	@Test
	void theSharedClientsWorkersEndWhileItsUpstreamIsIdle() throws InterruptedException {
		McpClient a = client("a", this.first, Duration.ofMillis(4_105));
		try {
			call(a);
			assertThat(workerThreads()).as("worker threads after a call").isPositive();
			long deadline = System.nanoTime() + Duration.ofSeconds(SharedHttpClients.WORKER_KEEP_ALIVE_SECONDS + 10)
				.toNanos();
			while (workerThreads() > 0 && System.nanoTime() < deadline) {
				Thread.sleep(200);
			}
			assertThat(workerThreads()).as("worker threads of an idle upstream").isZero();
			call(a);
		}
		finally {
			a.close();
		}
	}

	private static long workerThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("HttpClient-mcpx-")
					&& thread.getName().contains("-Worker-"))
			.count();
	}

	@Test
	void anApplicationHolderSharesByEqualSettingsAndBuildsOnFirstUse() throws IOException {
		AtomicInteger built = new AtomicInteger();
		try (McpHttpClients clients = new McpHttpClients()) {
			var same1 = clients.requestFactory("settings-1", () -> counted(built));
			var same2 = clients.requestFactory("settings-1", () -> counted(built));
			var other = clients.requestFactory("settings-2", () -> counted(built));
			assertThat(clients.builtClients()).isZero();
			URI uri = LoopbackUpstream.url(this.first);
			same1.createRequest(uri, org.springframework.http.HttpMethod.GET).execute().close();
			same2.createRequest(uri, org.springframework.http.HttpMethod.GET).execute().close();
			assertThat(clients.builtClients()).isEqualTo(1);
			other.createRequest(uri, org.springframework.http.HttpMethod.GET).execute().close();
			assertThat(clients.builtClients()).isEqualTo(2);
			assertThat(built).hasValue(2);
		}
	}

	@Test
	void aRestClientBuilderSuppliedForFirstUseIsTakenOnceAtTheFirstRequest() {
		AtomicInteger taken = new AtomicInteger();
		McpClient client = McpClient.builder("lazy", LoopbackUpstream.url(this.first))
			.protocol(ProtocolMode.LEGACY)
			.requestTimeout(Duration.ofSeconds(5))
			.listenForChanges(false)
			.restClientBuilder(() -> {
				taken.incrementAndGet();
				return RestClient.builder();
			})
			.build();
		try {
			assertThat(taken).as("taken when built").hasValue(0);
			call(client);
			call(client);
			assertThat(taken).as("taken after two calls").hasValue(1);
		}
		finally {
			client.close();
		}
	}

	private static HttpClient counted(AtomicInteger built) {
		built.incrementAndGet();
		return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
	}

	private void call(McpClient client) {
		assertThat(client.callTool("echo", Map.of("i", this.calls.incrementAndGet())).isError()).isFalse();
	}

	private static McpClient client(String name, HttpServer server, Duration connectTimeout) {
		return McpClient.builder(name, LoopbackUpstream.url(server))
			.protocol(ProtocolMode.LEGACY)
			.connectTimeout(connectTimeout)
			.requestTimeout(Duration.ofSeconds(5))
			.listenForChanges(false)
			.build();
	}

	private HttpServer server() throws IOException {
		return LoopbackUpstream.start(this::handle, Executors.newSingleThreadExecutor());
	}

	/** A legacy upstream with one tool, {@code echo}; a GET is answered 405. */
	private void handle(HttpExchange exchange) throws IOException {
		if (!exchange.getRequestMethod().equals("POST")) {
			exchange.sendResponseHeaders(405, -1);
			exchange.close();
			return;
		}
		JsonNode message = json.readTree(exchange.getRequestBody().readAllBytes());
		String method = message.path("method").asString();
		if (method.equals("initialize")) {
			String session = UUID.randomUUID().toString();
			this.liveSessions.add(session);
			exchange.getResponseHeaders().add("Mcp-Session-Id", session);
			reply(exchange, 200, result(message, "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
					+ "\"serverInfo\":{\"name\":\"shared\",\"version\":\"1\"}}"));
			return;
		}
		String session = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
		if (session == null || !this.liveSessions.contains(session)) {
			reply(exchange, 404, "{\"jsonrpc\":\"2.0\",\"id\":" + message.path("id")
					+ ",\"error\":{\"code\":-32001,\"message\":\"Session not found\"}}");
			return;
		}
		if (!message.has("id")) {
			exchange.sendResponseHeaders(202, -1);
			exchange.close();
			return;
		}
		if (method.equals("tools/list")) {
			reply(exchange, 200, result(message, "{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}"));
			return;
		}
		reply(exchange, 200, result(message, "{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"));
	}

}
