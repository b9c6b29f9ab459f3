package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.client.ClientHttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A shared JDK client that no exchange has used for the idle release is released, with its
 * pooled connection, and the next exchange builds a new one; one with an exchange in flight
 * never is (docs/architecture.md, "The transport seam"). The server counts the connections
 * it saw by the client's port.
 */
class SharedHttpClientsIdleReleaseTest {

	private static final Duration IDLE = Duration.ofMillis(300);

	private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();

	private final AtomicInteger requests = new AtomicInteger();

	private HttpServer server;

	@BeforeEach
	void start() throws IOException {
		this.server = LoopbackUpstream.start((exchange) -> {
			this.clientPorts.add(exchange.getRemoteAddress().getPort());
			this.requests.incrementAndGet();
			exchange.getRequestBody().readAllBytes();
			byte[] body = "{}".getBytes();
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		}, Executors.newSingleThreadExecutor());
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	@Test
	void anIdleClientIsReleasedWithItsConnectionAndTheNextRequestBuildsANewOne() throws Exception {
		AtomicInteger built = new AtomicInteger();
		try (SharedHttpClients clients = new SharedHttpClients(IDLE)) {
			BlockingJdkRequestFactory factory = new BlockingJdkRequestFactory(clients.lease("s", () -> jdk(built)));
			URI uri = LoopbackUpstream.url(this.server);
			for (int i = 0; i < 3; i++) {
				send(factory, uri);
			}
			assertThat(this.clientPorts).as("connections for three requests in a row").hasSize(1);
			awaitReleased(clients);
			send(factory, uri);
			assertThat(built).as("clients built").hasValue(2);
			assertThat(this.clientPorts).as("connections after the idle release").hasSize(2);
			assertThat(this.requests).hasValue(4);
		}
	}

	@Test
	void aClientWithAnExchangeInFlightIsNotReleased() throws Exception {
		AtomicInteger built = new AtomicInteger();
		try (SharedHttpClients clients = new SharedHttpClients(IDLE)) {
			BlockingJdkRequestFactory factory = new BlockingJdkRequestFactory(clients.lease("s", () -> jdk(built)));
			URI uri = LoopbackUpstream.url(this.server);
			ClientHttpResponse open = factory.createRequest(uri, HttpMethod.POST).execute();
			Thread.sleep(IDLE.multipliedBy(4).toMillis());
			assertThat(clients.builtClients()).as("clients while a response is open").isEqualTo(1);
			send(factory, uri);
			open.close();
			open.close(); // a second close counts nothing twice
			assertThat(built).as("clients built while one was in flight").hasValue(1);
			awaitReleased(clients);
			send(factory, uri);
			assertThat(built).hasValue(2);
		}
	}

	/**
	 * A client with an exchange in flight (an event stream may run for hours) is looked at
	 * again after the idle time, not every few milliseconds: the releasing thread sleeps
	 * while it waits for the exchange to end.
	 */
	@Test
	void anExchangeInFlightIsNotPolled() throws Exception {
		try (SharedHttpClients clients = new SharedHttpClients(Duration.ofSeconds(1))) {
			SharedHttpClients.Lease lease = clients.lease("s", () -> jdk(new AtomicInteger()));
			lease.acquire();
			Thread.sleep(200);
			int before = clients.scans();
			Thread.sleep(3_000);
			int during = clients.scans() - before;
			assertThat(during).as("looks at a client in flight for 3 s with a 1 s idle release").isBetween(1, 5);
			assertThat(clients.builtClients()).isEqualTo(1);
			lease.release();
		}
	}

	/**
	 * The exchanges mcpx sends without a {@code RestClient} give the client back when each is
	 * over, also when reading the response fails: otherwise it would never go idle.
	 */
	@Test
	void theDirectExchangeGivesTheClientBackAfterEachExchange() throws Exception {
		AtomicInteger built = new AtomicInteger();
		try (SharedHttpClients clients = new SharedHttpClients(IDLE)) {
			HttpLeg leg = HttpLeg.direct(clients.lease("s", () -> jdk(built)), LoopbackUpstream.url(this.server));
			assertThat(leg.post("{}".getBytes(), (headers) -> {
			}, HttpLeg.Response::status)).isEqualTo(200);
			assertThatThrownBy(() -> leg.post("{}".getBytes(), (headers) -> {
			}, (response) -> {
				throw new IOException("the reader failed");
			})).hasMessage("the reader failed");
			awaitReleased(clients);
			assertThat(leg.delete((headers) -> {
			})).isEqualTo(200);
			assertThat(built).hasValue(2);
			assertThat(this.requests).hasValue(3);
		}
	}

	/**
	 * Many threads take and give back the client while the holder releases it whenever none
	 * is in flight: no exchange is ever handed a client that was released, and the client was
	 * in fact released and rebuilt along the way.
	 */
	@Test
	void exchangesRacingTheReleaseNeverGetAReleasedClient() throws Exception {
		AtomicInteger built = new AtomicInteger();
		List<Fake> all = new CopyOnWriteArrayList<>();
		AtomicInteger handedReleased = new AtomicInteger();
		AtomicInteger exchanges = new AtomicInteger();
		try (SharedHttpClients clients = new SharedHttpClients(Duration.ofNanos(1))) {
			SharedHttpClients.Lease lease = clients.lease("s", () -> {
				built.incrementAndGet();
				Fake fake = new Fake();
				all.add(fake);
				return fake;
			});
			int threads = 16;
			long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
			CountDownLatch done = new CountDownLatch(threads);
			AtomicBoolean failed = new AtomicBoolean();
			for (int t = 0; t < threads; t++) {
				Thread thread = new Thread(() -> {
					try {
						while (System.nanoTime() < end) {
							Fake client = (Fake) lease.acquire();
							if (client.released.get()) {
								handedReleased.incrementAndGet();
							}
							client.inUse.incrementAndGet();
							exchanges.incrementAndGet();
							if (ThreadLocalRandom.current().nextInt(4) == 0) {
								Thread.sleep(1);
							}
							if (client.released.get()) {
								handedReleased.incrementAndGet(); // released while in flight
							}
							client.inUse.decrementAndGet();
							lease.release();
							if (ThreadLocalRandom.current().nextInt(8) == 0) {
								Thread.sleep(ThreadLocalRandom.current().nextInt(150));
							}
						}
					}
					catch (InterruptedException | RuntimeException ex) {
						failed.set(true);
					}
					finally {
						done.countDown();
					}
				});
				thread.start();
			}
			assertThat(done.await(30, TimeUnit.SECONDS)).as("threads finished").isTrue();
			assertThat(failed).isFalse();
			assertThat(exchanges.get()).as("exchanges").isPositive();
			assertThat(handedReleased).as("exchanges on a released client").hasValue(0);
			assertThat(built.get()).as("clients built (released and rebuilt)").isGreaterThan(1);
			assertThat(all.stream().filter((fake) -> fake.closedInUse.get())).as("clients closed in use").isEmpty();
		}
	}

	@Test
	void theIdleReleaseIsTheJdksKeepAliveWhenTheApplicationSetsIt() {
		String key = "jdk.httpclient.keepalive.timeout";
		String before = System.getProperty(key);
		try {
			System.clearProperty(key);
			assertThat(SharedHttpClients.idleRelease()).isEqualTo(SharedHttpClients.DEFAULT_IDLE_RELEASE)
				.isEqualTo(Duration.ofSeconds(30));
			System.setProperty(key, "600");
			assertThat(SharedHttpClients.idleRelease()).isEqualTo(Duration.ofSeconds(600));
			System.setProperty(key, "ten");
			assertThat(SharedHttpClients.idleRelease()).isEqualTo(SharedHttpClients.DEFAULT_IDLE_RELEASE);
			System.setProperty(key, "0");
			assertThat(SharedHttpClients.idleRelease()).isEqualTo(SharedHttpClients.DEFAULT_IDLE_RELEASE);
		}
		finally {
			if (before == null) {
				System.clearProperty(key);
			}
			else {
				System.setProperty(key, before);
			}
		}
	}

	@Test
	void theReleasingThreadEndsWhenNoClientIsLeft() throws Exception {
		try (SharedHttpClients clients = new SharedHttpClients(IDLE)) {
			BlockingJdkRequestFactory factory = new BlockingJdkRequestFactory(
					clients.lease("s", () -> jdk(new AtomicInteger())));
			assertThat(clients.releaser()).as("releasing thread before any client").isNull();
			send(factory, LoopbackUpstream.url(this.server));
			Thread releaser = clients.releaser();
			assertThat(releaser).as("releasing thread while a client is held").isNotNull();
			assertThat(releaser.getName()).isEqualTo("HttpClient-mcpx-idle-release");
			awaitReleased(clients);
			releaser.join(TimeUnit.SECONDS.toMillis(5));
			assertThat(releaser.isAlive()).as("releasing thread alive with no client left").isFalse();
			assertThat(clients.releaser()).as("an ended releasing thread held").isNull();
		}
	}

	/**
	 * The last upstream of a client closing ends the releasing thread at once, not at the
	 * idle release: an application that closes its upstreams keeps no thread of theirs.
	 */
	@Test
	void returningTheLastLeaseEndsTheReleasingThreadAtOnce() throws Exception {
		try (SharedHttpClients clients = new SharedHttpClients(Duration.ofHours(1))) {
			SharedHttpClients.Lease lease = clients.lease("s", () -> jdk(new AtomicInteger()));
			send(new BlockingJdkRequestFactory(lease), LoopbackUpstream.url(this.server));
			Thread releaser = clients.releaser();
			assertThat(releaser).isNotNull();
			lease.close();
			releaser.join(TimeUnit.SECONDS.toMillis(5));
			assertThat(releaser.isAlive()).as("releasing thread alive 5 s after the last lease was returned")
				.isFalse();
			assertThat(clients.builtClients()).isZero();
		}
	}

	private static void awaitReleased(SharedHttpClients clients) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (clients.builtClients() > 0 && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		assertThat(clients.builtClients()).as("clients left after the idle release").isZero();
	}

	private static void send(BlockingJdkRequestFactory factory, URI uri) throws IOException {
		var request = factory.createRequest(uri, HttpMethod.POST);
		request.getBody().write("{}".getBytes());
		try (ClientHttpResponse response = request.execute()) {
			assertThat(response.getStatusCode().value()).isEqualTo(200);
			assertThat(response.getBody().readAllBytes()).hasSize(2);
		}
	}

	private static HttpClient jdk(AtomicInteger built) {
		built.incrementAndGet();
		return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
	}

	/** A client that only records whether it was closed, and whether while in use. */
	private static final class Fake extends HttpClient implements AutoCloseable {

		final AtomicBoolean released = new AtomicBoolean();

		final AtomicBoolean closedInUse = new AtomicBoolean();

		final AtomicInteger inUse = new AtomicInteger();

		@Override
		public void close() {
			if (this.inUse.get() != 0) {
				this.closedInUse.set(true);
			}
			this.released.set(true);
		}

		@Override
		public Optional<CookieHandler> cookieHandler() {
			return Optional.empty();
		}

		@Override
		public Optional<Duration> connectTimeout() {
			return Optional.empty();
		}

		@Override
		public Redirect followRedirects() {
			return Redirect.NEVER;
		}

		@Override
		public Optional<ProxySelector> proxy() {
			return Optional.empty();
		}

		@Override
		public SSLContext sslContext() {
			throw new UnsupportedOperationException();
		}

		@Override
		public SSLParameters sslParameters() {
			throw new UnsupportedOperationException();
		}

		@Override
		public Optional<Authenticator> authenticator() {
			return Optional.empty();
		}

		@Override
		public Version version() {
			return Version.HTTP_1_1;
		}

		@Override
		public Optional<Executor> executor() {
			return Optional.empty();
		}

		@Override
		public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
			throw new UnsupportedOperationException();
		}

		@Override
		public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
				HttpResponse.BodyHandler<T> handler) {
			throw new UnsupportedOperationException();
		}

		@Override
		public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
				HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> push) {
			throw new UnsupportedOperationException();
		}

	}

}
