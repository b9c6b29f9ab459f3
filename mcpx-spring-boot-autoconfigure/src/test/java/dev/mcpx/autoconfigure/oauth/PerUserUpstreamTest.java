package dev.mcpx.autoconfigure.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
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
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.event.EventListener;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.ai.McpxToolCallbackProvider;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClientStatus;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.client.error.McpNoUserException;
import dev.mcpx.client.event.McpEraDetectedEvent;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpUserEvent;
import dev.mcpx.client.model.CallToolResult;

import static dev.mcpx.autoconfigure.oauth.UserAuthorizationServerApp.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An upstream with {@code oauth.identity: user}, from its properties, against a real
 * authorization server (Spring Authorization Server, token exchange on) and an MCP server
 * behind Spring Security's resource server that records the subject of every call (see
 * {@link UserAuthorizationServerApp}). What the servers counted is the evidence: every call
 * ran for the user who made it, in that user's own session, with a token exchanged for that
 * user and that upstream (RFC 8693, RFC 8707), and one user's revoked grant or expired token
 * fails only that user's calls.
 */
class PerUserUpstreamTest {

	/** Short, so exchanged tokens expire and are renewed while the threads call. */
	private static final Duration EXCHANGED_TOKEN_LIFETIME = Duration.ofSeconds(3);

	private static final int THREADS = 16;

	private static final Duration RUN = Duration.ofSeconds(8);

	private static UserAuthorizationServerApp app;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxOAuthAutoConfiguration.class));

	@BeforeAll
	static void start() {
		app = UserAuthorizationServerApp.start(EXCHANGED_TOKEN_LIFETIME);
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private void withClient(Consumer<McpClient> test) {
		withClients((clients) -> test.accept(clients.get("crm")));
	}

	private void withClients(Consumer<McpClients> test) {
		withClients(8, test);
	}

	private void withClients(int maxUsers, Consumer<McpClients> test) {
		this.contextRunner
			.withPropertyValues("mcpx.clients.crm.url=" + app.mcpUrl(), "mcpx.clients.crm.protocol=legacy",
					"mcpx.clients.crm.request-timeout=30s", "mcpx.clients.crm.oauth.identity=user",
					"mcpx.clients.crm.oauth.client-id=" + UserAuthorizationServerApp.CLIENT_ID,
					"mcpx.clients.crm.oauth.client-secret=" + UserAuthorizationServerApp.CLIENT_SECRET,
					"mcpx.clients.crm.oauth.user-sessions.max=" + maxUsers)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				test.accept(context.getBean(McpClients.class));
			});
	}

	@Test
	void twoUsersOnSixteenThreadsEachReachTheServerWithTheirOwnTokenAndSessionWhileTokensExpire() {
		JwtAuthenticationToken alice = app.signIn("alice");
		JwtAuthenticationToken bob = app.signIn("bob");
		UserAuthorizationServerApp.Counters seen = app.counters();
		int aliceBefore = seen.executions("alice");
		int bobBefore = seen.executions("bob");
		int aliceExchangesBefore = seen.exchanges("alice");
		int bobExchangesBefore = seen.exchanges("bob");
		Set<String> sessionsBefore = new HashSet<>(seen.subjectsOfSession.keySet());
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
						// the server ran it for this thread's user, never the other
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
			System.out.printf("%d threads, %d calls for alice, %d for bob in %d ms: %d and %d token exchanges%n",
					THREADS, aliceCalls.get(), bobCalls.get(), elapsedMillis, aliceExchanges, bobExchanges);

			assertThat(seen.executions("alice") - aliceBefore).as("calls the server ran for alice")
				.isEqualTo(aliceCalls.get())
				.isGreaterThan(THREADS);
			assertThat(seen.executions("bob") - bobBefore).as("calls the server ran for bob")
				.isEqualTo(bobCalls.get())
				.isGreaterThan(THREADS);
			Set<String> sessions = new HashSet<>(seen.subjectsOfSession.keySet());
			sessions.removeAll(sessionsBefore);
			assertThat(sessions).as("sessions opened: one per user").hasSize(2);
			assertThat(sessions).allSatisfy((session) -> assertThat(seen.subjectsOfSession.get(session))
				.as("subjects seen in session %s", session)
				.hasSize(1));
			// each user's token expired several times under load and was renewed once per
			// expiry for that user, without another user's calls waiting on it
			assertThat(aliceExchanges).as("token exchanges for alice over %d ms", elapsedMillis)
				.isGreaterThanOrEqualTo(2)
				.isLessThanOrEqualTo((int) (elapsedMillis / (EXCHANGED_TOKEN_LIFETIME.toMillis() - 1300)) + 1);
			assertThat(bobExchanges).as("token exchanges for bob over %d ms", elapsedMillis)
				.isGreaterThanOrEqualTo(2)
				.isLessThanOrEqualTo((int) (elapsedMillis / (EXCHANGED_TOKEN_LIFETIME.toMillis() - 1300)) + 1);
			assertThat(seen.resources).as("RFC 8707 resource of the token exchanges").containsExactly(app.mcpUrl());

			McpClientStatus status = client.status();
			assertThat(status.userSessions()).isNotNull();
			assertThat(status.userSessions().open()).isEqualTo(2);
			assertThat(status.userSessions().max()).isEqualTo(8);
			assertThat(status.toString()).doesNotContain("alice", "bob", alice.getToken().getTokenValue(),
					bob.getToken().getTokenValue());
		});
	}

	@Test
	void aUsersEventsNameThemByASaltedHashOnlyWhenTheApplicationAsks() throws Exception {
		JwtAuthenticationToken alice = app.signIn("alice");
		for (String mode : List.of("none", "hashed")) {
			List<McpEvent> events = new CopyOnWriteArrayList<>();
			// auto: each user's client detects the era, an event of that user's call
			this.contextRunner.withBean(EventsSeen.class, () -> new EventsSeen(events))
				.withPropertyValues("mcpx.clients.crm.url=" + app.mcpUrl(), "mcpx.clients.crm.protocol=auto",
						"mcpx.clients.crm.oauth.identity=user", "mcpx.clients.crm.oauth.user-id-in-events=" + mode,
						"mcpx.clients.crm.oauth.client-id=" + UserAuthorizationServerApp.CLIENT_ID,
						"mcpx.clients.crm.oauth.client-secret=" + UserAuthorizationServerApp.CLIENT_SECRET)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					McpClient client = context.getBean(McpClients.class).get("crm");
					assertThat(as(alice, () -> client.callTool("whoami", Map.of("text", mode))).text())
						.isEqualTo("alice:" + mode);
				});
			List<McpEvent> eras = events.stream()
				.filter((event) -> ((event instanceof McpUserEvent user) ? user.event() : event) instanceof McpEraDetectedEvent)
				.toList();
			assertThat(eras).as("era detections with user-id-in-events %s", mode).isNotEmpty();
			if (mode.equals("none")) {
				assertThat(events).as("events that name no user").noneMatch(McpUserEvent.class::isInstance);
			}
			else {
				assertThat(events).as("a user's events").isNotEmpty().allMatch(McpUserEvent.class::isInstance);
				String key = SecurityContextUserIdentity.key(alice);
				assertThat(events).extracting((event) -> ((McpUserEvent) event).user())
					.as("the user as a salted hash: one identifier, not the user's key")
					.containsOnly(((McpUserEvent) events.get(0)).user())
					.allSatisfy((user) -> assertThat(user).matches("[0-9a-f]{24}").isNotEqualTo(key));
			}
			assertThat(events).allSatisfy((event) -> assertThat(event.toString()).doesNotContain("alice",
					alice.getToken().getTokenValue()));
		}
	}

	@Test
	void aRevokedGrantFailsOnlyItsUsersCalls() {
		JwtAuthenticationToken alice = app.signIn("alice");
		JwtAuthenticationToken bob = app.signIn("bob");
		withClient((client) -> {
			try {
				assertThat(as(alice, () -> client.callTool("whoami", Map.of("text", "before"))).text())
					.isEqualTo("alice:before");
				app.revoke("alice", alice.getToken().getTokenValue());
				// alice's exchanged token lives on until it expires; then her grant is gone
				Thread.sleep(EXCHANGED_TOKEN_LIFETIME.toMillis() + 1000);
				int bobBefore = app.counters().executions("bob");
				int aliceBefore = app.counters().executions("alice");
				for (int i = 0; i < 3; i++) {
					String text = "after-" + i;
					assertThat(as(bob, () -> client.callTool("whoami", Map.of("text", text))).text())
						.isEqualTo("bob:" + text);
					assertThatExceptionOfType(McpAuthenticationException.class)
						.isThrownBy(() -> as(alice, () -> client.callTool("whoami", Map.of("text", text))))
						.satisfies((failure) -> assertThat(failure.getCause()).hasMessageContaining("token exchange")
							.hasMessageContaining("invalid_grant")
							.hasMessageNotContaining(alice.getToken().getTokenValue()));
				}
				assertThat(app.counters().executions("bob") - bobBefore).isEqualTo(3);
				assertThat(app.counters().executions("alice") - aliceBefore).isZero();
			}
			catch (Exception ex) {
				throw new AssertionError(ex);
			}
		});
	}

	@Test
	void aCallWithoutAUserIsRefusedBeforeAnythingIsSent() {
		int exchangesBefore = app.counters().exchanges.values().stream().mapToInt(AtomicInteger::get).sum();
		int executionsBefore = app.counters().executions.values().stream().mapToInt(AtomicInteger::get).sum();
		withClient((client) -> {
			assertThatExceptionOfType(McpNoUserException.class)
				.isThrownBy(() -> client.callTool("whoami", Map.of("text", "nobody")))
				.withMessageContaining("no user in the calling thread")
				.withMessageContaining("never as the application");
			assertThat(client.status().userSessions().open()).isZero();
		});
		assertThat(app.counters().exchanges.values().stream().mapToInt(AtomicInteger::get).sum())
			.isEqualTo(exchangesBefore);
		assertThat(app.counters().executions.values().stream().mapToInt(AtomicInteger::get).sum())
			.isEqualTo(executionsBefore);
	}

	@Test
	void anExpiredUserTokenIsNotExchangedAndTheErrorSaysSo() {
		Jwt signedIn = app.signIn("carol").getToken();
		Jwt expired = Jwt.withTokenValue(signedIn.getTokenValue())
			.headers((headers) -> headers.putAll(signedIn.getHeaders()))
			.claims((claims) -> claims.putAll(signedIn.getClaims()))
			.issuedAt(Instant.now().minusSeconds(600))
			.expiresAt(Instant.now().minusSeconds(60))
			.build();
		int exchangesBefore = app.counters().exchanges("carol");
		withClient((client) -> assertThatExceptionOfType(McpAuthenticationException.class)
			.isThrownBy(() -> as(UserAuthorizationServerApp.authenticated(expired), () -> client.callTool("whoami", Map.of("text", "x"))))
			.satisfies((failure) -> assertThat(failure.getCause()).hasMessageContaining("token exchange")
				.hasMessageContaining("expired")
				.hasMessageNotContaining(signedIn.getTokenValue())));
		assertThat(app.counters().exchanges("carol")).isEqualTo(exchangesBefore);
		assertThat(app.counters().executions("carol")).isZero();
	}

	@Test
	void springAiListsAndCallsTheToolsOfTheChatRequestsUser() {
		JwtAuthenticationToken bob = app.signIn("bob");
		int before = app.counters().executions("bob");
		withClients((clients) -> {
			try (McpxToolCallbackProvider provider = McpxToolCallbackProvider.of(clients)) {
				// the listing runs on mcpx's listing threads, with the chat request's user
				ToolCallback[] callbacks = as(bob, provider::getToolCallbacks);
				assertThat(callbacks).extracting((callback) -> callback.getToolDefinition().name())
					.containsExactly("whoami");
				assertThat(as(bob, () -> callbacks[0].call("{\"text\":\"from a chat\"}"))).contains("bob:from a chat");
				// without a user, the upstream's tools are left out rather than listed as anyone
				assertThat(provider.getToolCallbacks()).isEmpty();
			}
			catch (Exception ex) {
				throw new AssertionError(ex);
			}
		});
		assertThat(app.counters().executions("bob") - before).isEqualTo(1);
	}

	@Test
	void aUserEvictedFromAFullPoolHasTheirSessionEndedWithDelete() {
		JwtAuthenticationToken alice = app.signIn("alice");
		JwtAuthenticationToken bob = app.signIn("bob");
		withClients(1, (clients) -> {
			McpClient client = clients.get("crm");
			try {
				assertThat(as(alice, () -> client.callTool("whoami", Map.of("text", "1"))).text()).isEqualTo("alice:1");
				int deletesBefore = app.counters().deletes.get();
				assertThat(as(bob, () -> client.callTool("whoami", Map.of("text", "2"))).text()).isEqualTo("bob:2");
				assertThat(app.counters().deletes.get() - deletesBefore).as("sessions ended with DELETE").isEqualTo(1);
				assertThat(as(alice, () -> client.callTool("whoami", Map.of("text", "3"))).text()).isEqualTo("alice:3");
				McpClientStatus.UserSessions users = client.status().userSessions();
				assertThat(users.open()).isEqualTo(1);
				assertThat(users.opened()).isEqualTo(3);
				assertThat(users.evicted()).isEqualTo(2);
			}
			catch (Exception ex) {
				throw new AssertionError(ex);
			}
		});
	}

	@Test
	void eachUserCallsWithTheirOwnAuthorizedClientKeptInTheAuthorizedClientService() throws Exception {
		ClientRegistration registration = ClientRegistration.withRegistrationId("crm-user")
			.clientId(UserAuthorizationServerApp.CLIENT_ID)
			.clientSecret(UserAuthorizationServerApp.CLIENT_SECRET)
			.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
			.redirectUri("http://127.0.0.1/callback")
			.authorizationUri(app.issuer() + "/oauth2/authorize")
			.tokenUri(app.issuer() + "/oauth2/token")
			.scope(UserAuthorizationServerApp.SCOPE)
			.build();
		InMemoryClientRegistrationRepository registrations = new InMemoryClientRegistrationRepository(registration);
		InMemoryOAuth2AuthorizedClientService authorizedClients = new InMemoryOAuth2AuthorizedClientService(
				registrations);
		// alice and bob authorized once in the browser; carol never did
		for (String user : List.of("alice", "bob")) {
			authorizedClients.saveAuthorizedClient(new OAuth2AuthorizedClient(registration, user,
					new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, app.tokenOf(user, app.mcpUrl()),
							Instant.now(), Instant.now().plusSeconds(300))),
					new TestingAuthenticationToken(user, null, "ROLE_USER"));
		}
		int aliceBefore = app.counters().executions("alice");
		int bobBefore = app.counters().executions("bob");
		this.contextRunner.withBean(ClientRegistrationRepository.class, () -> registrations)
			.withBean(OAuth2AuthorizedClientService.class, () -> authorizedClients)
			.withPropertyValues("mcpx.clients.crm.url=" + app.mcpUrl(), "mcpx.clients.crm.protocol=legacy",
					"mcpx.clients.crm.oauth.identity=user", "mcpx.clients.crm.oauth.registration-id=crm-user")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpClient client = context.getBean(McpClients.class).get("crm");
				for (int i = 0; i < 3; i++) {
					String text = "call-" + i;
					assertThat(as(new TestingAuthenticationToken("alice", null, "ROLE_USER"),
							() -> client.callTool("whoami", Map.of("text", text))).text()).isEqualTo("alice:" + text);
					assertThat(as(new TestingAuthenticationToken("bob", null, "ROLE_USER"),
							() -> client.callTool("whoami", Map.of("text", text))).text()).isEqualTo("bob:" + text);
				}
				assertThatExceptionOfType(McpAuthenticationException.class)
					.isThrownBy(() -> as(new TestingAuthenticationToken("carol", null, "ROLE_USER"),
							() -> client.callTool("whoami", Map.of("text", "x"))))
					.satisfies((failure) -> assertThat(failure.getCause()).hasMessageContaining("crm-user")
						.hasMessageContaining("authorize"));
				assertThat(client.status().userSessions().open()).isEqualTo(3);
			});
		assertThat(app.counters().executions("alice") - aliceBefore).isEqualTo(3);
		assertThat(app.counters().executions("bob") - bobBefore).isEqualTo(3);
		assertThat(app.counters().executions("carol")).isZero();
	}

	/** The application's listener of mcpx's events, as Spring publishes them. */
	static final class EventsSeen {

		private final List<McpEvent> events;

		EventsSeen(List<McpEvent> events) {
			this.events = events;
		}

		@EventListener
		public void on(McpEvent event) {
			this.events.add(event);
		}

	}

}
