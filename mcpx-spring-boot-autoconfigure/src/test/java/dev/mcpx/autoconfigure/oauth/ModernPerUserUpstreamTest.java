package dev.mcpx.autoconfigure.oauth;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.error.McpNoUserException;
import dev.mcpx.client.model.CallToolResult;
import dev.mcpx.client.model.Tool;

import static dev.mcpx.autoconfigure.oauth.UserAuthorizationServerApp.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An upstream with {@code oauth.identity: user} and {@code protocol: modern} against a
 * modern-era (2026-07-28) MCP server behind Spring Security's resource server, tokens
 * exchanged at Spring Authorization Server ({@link UserAuthorizationServerApp#startModern}).
 * The modern era has no session, so the upstream keeps one client and a token cache per user:
 * the server discovers once for every user, never sees an {@code initialize}, and still sees
 * every call with its own user's token; a listing the server marks {@code private} is never
 * served to another user from the cache.
 */
class ModernPerUserUpstreamTest {

	/** Short, so exchanged tokens expire and are renewed while the threads call. */
	private static final Duration EXCHANGED_TOKEN_LIFETIME = Duration.ofSeconds(3);

	private static final int THREADS = 16;

	private static final Duration RUN = Duration.ofSeconds(7);

	private static UserAuthorizationServerApp app;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxOAuthAutoConfiguration.class));

	@BeforeAll
	static void start() {
		app = UserAuthorizationServerApp.startModern(EXCHANGED_TOKEN_LIFETIME);
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private void withClient(Consumer<McpClient> test) {
		this.contextRunner
			.withPropertyValues("mcpx.clients.crm.url=" + app.mcpUrl(), "mcpx.clients.crm.protocol=modern",
					"mcpx.clients.crm.request-timeout=30s", "mcpx.clients.crm.oauth.identity=user",
					"mcpx.clients.crm.oauth.client-id=" + UserAuthorizationServerApp.CLIENT_ID,
					"mcpx.clients.crm.oauth.client-secret=" + UserAuthorizationServerApp.CLIENT_SECRET,
					"mcpx.clients.crm.oauth.user-sessions.max=8")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				test.accept(context.getBean(McpClients.class).get("crm"));
			});
	}

	@Test
	void twoUsersOnSixteenThreadsShareOneClientAndEachCallCarriesItsOwnUsersToken() {
		JwtAuthenticationToken alice = app.signIn("alice");
		JwtAuthenticationToken bob = app.signIn("bob");
		UserAuthorizationServerApp.Counters seen = app.counters();
		int aliceBefore = seen.executions("alice");
		int bobBefore = seen.executions("bob");
		int aliceExchangesBefore = seen.exchanges("alice");
		int bobExchangesBefore = seen.exchanges("bob");
		int discoversBefore = seen.requests("server/discover", "alice") + seen.requests("server/discover", "bob");
		withClient((client) -> {
			AtomicInteger aliceCalls = new AtomicInteger();
			AtomicInteger bobCalls = new AtomicInteger();
			long started = System.nanoTime();
			long deadline = started + RUN.toNanos();
			ExecutorService pool = Executors.newFixedThreadPool(THREADS);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<Integer>> workers = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				boolean isAlice = t % 2 == 0;
				String thread = "t" + t;
				workers.add(pool.submit(() -> as(isAlice ? alice : bob, () -> {
					go.await();
					int calls = 0;
					String subject = isAlice ? "alice" : "bob";
					while (System.nanoTime() < deadline) {
						String text = thread + "-" + calls;
						CallToolResult result = client.callTool("whoami", Map.of("text", text));
						// the server ran it with this thread's user's token, never the other's
						assertThat(result.text()).isEqualTo(subject + ":" + text);
						(isAlice ? aliceCalls : bobCalls).incrementAndGet();
						calls++;
					}
					return calls;
				})));
			}
			go.countDown();
			try {
				for (Future<Integer> worker : workers) {
					worker.get(RUN.toSeconds() + 60, TimeUnit.SECONDS);
				}
			}
			catch (Exception ex) {
				throw new AssertionError(ex);
			}
			finally {
				pool.shutdownNow();
			}
			long elapsedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
			int aliceExchanges = seen.exchanges("alice") - aliceExchangesBefore;
			int bobExchanges = seen.exchanges("bob") - bobExchangesBefore;
			System.out.printf("modern: %d threads, %d calls for alice, %d for bob in %d ms: %d and %d token exchanges%n",
					THREADS, aliceCalls.get(), bobCalls.get(), elapsedMillis, aliceExchanges, bobExchanges);

			assertThat(seen.executions("alice") - aliceBefore).as("calls the server ran for alice")
				.isEqualTo(aliceCalls.get())
				.isGreaterThan(THREADS);
			assertThat(seen.executions("bob") - bobBefore).as("calls the server ran for bob")
				.isEqualTo(bobCalls.get())
				.isGreaterThan(THREADS);
			// one client for both users: one discovery (cached a minute, public), no handshake
			assertThat(seen.requests("server/discover", "alice") + seen.requests("server/discover", "bob")
					- discoversBefore).as("server/discover requests for both users").isEqualTo(1);
			assertThat(seen.requests.keySet()).as("requests the server saw")
				.noneMatch((key) -> key.startsWith("initialize "));
			// each user's token expired under load and was renewed once per expiry, for that user
			assertThat(aliceExchanges).as("token exchanges for alice over %d ms", elapsedMillis)
				.isGreaterThanOrEqualTo(2)
				.isLessThanOrEqualTo((int) (elapsedMillis / (EXCHANGED_TOKEN_LIFETIME.toMillis() - 1300)) + 1);
			assertThat(bobExchanges).as("token exchanges for bob over %d ms", elapsedMillis)
				.isGreaterThanOrEqualTo(2)
				.isLessThanOrEqualTo((int) (elapsedMillis / (EXCHANGED_TOKEN_LIFETIME.toMillis() - 1300)) + 1);
			assertThat(seen.acceptedTokens.get("alice")).as("tokens the server accepted for alice")
				.hasSizeBetween(2, aliceExchanges + 1);
			assertThat(seen.resources).as("RFC 8707 resource of the token exchanges").containsExactly(app.mcpUrl());

			McpClientStatus status = client.status();
			assertThat(status.userSessions()).isNotNull();
			assertThat(status.userSessions().open()).as("users' token caches").isEqualTo(2);
			assertThat(status.toString()).doesNotContain("alice", "bob", alice.getToken().getTokenValue(),
					bob.getToken().getTokenValue());
		});
	}

	@Test
	void aPrivateListingIsNeverServedToAnotherUserFromTheCache() throws Exception {
		JwtAuthenticationToken alice = app.signIn("alice");
		JwtAuthenticationToken bob = app.signIn("bob");
		int bobListingsBefore = app.counters().requests("tools/list", "bob");
		withClient((client) -> {
			try {
				assertThat(as(alice, client::listTools)).extracting(Tool::description)
					.containsExactly("answers for alice");
				// the server said cacheScope "private": bob's listing is his own, fetched for him
				assertThat(as(bob, client::listTools)).extracting(Tool::description).containsExactly("answers for bob");
			}
			catch (Exception ex) {
				throw new AssertionError(ex);
			}
		});
		assertThat(app.counters().requests("tools/list", "bob") - bobListingsBefore).isEqualTo(1);
	}

	@Test
	void aCallWithoutAUserOrASubscriptionIsRefusedBeforeAnythingIsSent() {
		JwtAuthenticationToken carol = app.signIn("carol");
		int executionsBefore = app.counters().executions.values().stream().mapToInt(AtomicInteger::get).sum();
		int carolRequestsBefore = app.counters().requests.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().endsWith(" carol"))
			.mapToInt((entry) -> entry.getValue().get())
			.sum();
		withClient((client) -> {
			assertThatExceptionOfType(McpNoUserException.class)
				.isThrownBy(() -> client.callTool("whoami", Map.of("text", "nobody")))
				.withMessageContaining("never as the application");
			// a subscription stream is one per client: it would carry one user's token for all
			assertThatExceptionOfType(McpException.class)
				.isThrownBy(() -> as(carol, () -> client.subscribe("crm://records", (update) -> {
				})))
				.withMessageContaining("resources/subscribe was not sent");
		});
		assertThat(app.counters().executions.values().stream().mapToInt(AtomicInteger::get).sum())
			.isEqualTo(executionsBefore);
		assertThat(app.counters().requests.entrySet()
			.stream()
			.filter((entry) -> entry.getKey().endsWith(" carol"))
			.mapToInt((entry) -> entry.getValue().get())
			.sum()).isEqualTo(carolRequestsBefore);
	}

}
