package dev.mcpx.autoconfigure.oauth;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;

import dev.mcpx.autoconfigure.McpxAutoConfiguration;
import dev.mcpx.autoconfigure.ai.McpxSpringAiAutoConfiguration;
import dev.mcpx.autoconfigure.ai.ScriptedChatModel;
import dev.mcpx.client.error.McpNoUserException;

import static dev.mcpx.autoconfigure.oauth.UserAuthorizationServerApp.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Spring AI's streaming tool loop ({@code ChatClient.stream()}) against an upstream that acts
 * for each user ({@code oauth.identity: user}), the real Spring Authorization Server (token
 * exchange) and an MCP server behind Spring Security's resource server that records the
 * subject of every call ({@link UserAuthorizationServerApp}); the model is the only double
 * ({@link ScriptedChatModel}). Spring AI runs a streamed request's tool calls on Reactor's
 * {@code boundedElastic} threads, which hold no {@code SecurityContext}: each call must still
 * reach the server as the user whose request it belongs to, and never as another user or as
 * the application (docs/oauth.md, "Acting for each user").
 */
class SpringAiStreamingPerUserTest {

	private static final int THREADS_PER_USER = 8;

	private static final int STREAMS_PER_THREAD = 6;

	private static UserAuthorizationServerApp app;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RestClientAutoConfiguration.class, McpxAutoConfiguration.class,
				McpxOAuthAutoConfiguration.class, McpxSpringAiAutoConfiguration.class))
		.withPropertyValues("mcpx.clients.crm.protocol=legacy", "mcpx.clients.crm.request-timeout=30s",
				"mcpx.clients.crm.oauth.identity=user",
				"mcpx.clients.crm.oauth.client-id=" + UserAuthorizationServerApp.CLIENT_ID,
				"mcpx.clients.crm.oauth.client-secret=" + UserAuthorizationServerApp.CLIENT_SECRET);

	private final ScriptedChatModel model = new ScriptedChatModel();

	@BeforeAll
	static void start() {
		app = UserAuthorizationServerApp.start(Duration.ofMinutes(5));
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private void withChat(List<String> properties, Consumer<ChatClient> test) {
		this.contextRunner.withPropertyValues("mcpx.clients.crm.url=" + app.mcpUrl())
			.withPropertyValues(properties.toArray(String[]::new))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				// the provider, as an application hands it to its ChatClient
				test.accept(ChatClient.builder(this.model)
					.defaultToolCallbacks(context.getBean(ToolCallbackProvider.class))
					.build());
			});
	}

	/** One streamed chat request, read to its end on the calling thread. */
	private static String stream(ChatClient chat, String text) {
		List<String> chunks = chat.prompt().user(text).stream().content().collectList().block(Duration.ofSeconds(60));
		return String.join("", chunks);
	}

	@Test
	void twoUsersStreamingFromEightThreadsEachReachTheServerAsThemselves() {
		JwtAuthenticationToken alice = app.signIn("alice");
		JwtAuthenticationToken bob = app.signIn("bob");
		UserAuthorizationServerApp.Counters seen = app.counters();
		int aliceBefore = seen.executions("alice");
		int bobBefore = seen.executions("bob");
		int applicationBefore = seen.executions(UserAuthorizationServerApp.CLIENT_ID);
		Set<String> sessionsBefore = new HashSet<>(seen.subjectsOfSession.keySet());
		Set<String> callerThreads = ConcurrentHashMap.newKeySet();
		AtomicInteger aliceStreams = new AtomicInteger();
		AtomicInteger bobStreams = new AtomicInteger();
		this.model.willCallWithUserText("whoami");
		withChat(List.of(), (chat) -> {
			ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_USER);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 2 * THREADS_PER_USER; t++) {
				boolean isAlice = t % 2 == 0;
				String thread = "t" + t;
				workers.add(pool.submit(() -> as(isAlice ? alice : bob, () -> {
					callerThreads.add(Thread.currentThread().getName());
					go.await();
					String subject = isAlice ? "alice" : "bob";
					for (int i = 0; i < STREAMS_PER_THREAD; i++) {
						String text = thread + "-" + i;
						// the server answers with the subject of the token that carried the call
						assertThat(stream(chat, text)).isEqualTo(ScriptedChatModel.TOOL_SAID + subject + ":" + text);
						(isAlice ? aliceStreams : bobStreams).incrementAndGet();
					}
					return null;
				})));
			}
			go.countDown();
			try {
				for (Future<?> worker : workers) {
					worker.get(120, TimeUnit.SECONDS);
				}
			}
			catch (Exception ex) {
				throw new AssertionError(ex);
			}
			finally {
				pool.shutdownNow();
			}
		});
		int streams = 2 * THREADS_PER_USER * STREAMS_PER_THREAD;
		assertThat(aliceStreams.get() + bobStreams.get()).isEqualTo(streams);
		// Spring AI went on with every tool loop off the callers' threads, where no user is
		assertThat(this.model.toolResultThreads()).hasSize(streams)
			.allSatisfy((thread) -> assertThat(thread).startsWith("boundedElastic"))
			.doesNotContainAnyElementsOf(callerThreads);
		assertThat(seen.executions("alice") - aliceBefore).as("calls the server ran for alice")
			.isEqualTo(aliceStreams.get());
		assertThat(seen.executions("bob") - bobBefore).as("calls the server ran for bob").isEqualTo(bobStreams.get());
		assertThat(seen.executions(UserAuthorizationServerApp.CLIENT_ID) - applicationBefore)
			.as("calls the server ran as the application")
			.isZero();
		Set<String> sessions = new HashSet<>(seen.subjectsOfSession.keySet());
		sessions.removeAll(sessionsBefore);
		assertThat(sessions).as("sessions opened: one per user").hasSize(2);
		assertThat(sessions).allSatisfy((session) -> assertThat(seen.subjectsOfSession.get(session))
			.as("subjects seen in session %s", session)
			.hasSize(1));
	}

	@Test
	void aStreamWithoutASignedInUserSendsNothingAndFailsWithNoUserWhenAsked() {
		UserAuthorizationServerApp.Counters seen = app.counters();
		int exchangesBefore = seen.exchanges.values().stream().mapToInt(AtomicInteger::get).sum();
		int executionsBefore = seen.executions.values().stream().mapToInt(AtomicInteger::get).sum();
		this.model.willCallWithUserText("whoami");
		// the listing is refused for want of a user: the tool is left out, not listed as anyone
		withChat(List.of(), (chat) -> assertThat(stream(chat, "nobody"))
			.isEqualTo(ScriptedChatModel.NOT_OFFERED + "whoami"));
		withChat(List.of("mcpx.spring-ai.fail-on-unavailable-upstream=true"),
				(chat) -> assertThatIllegalStateException().isThrownBy(() -> stream(chat, "nobody"))
					.withMessageContaining("mcpx.spring-ai.fail-on-unavailable-upstream")
					.havingCause()
					.isInstanceOf(McpNoUserException.class)
					.withMessageContaining("never as the application"));
		assertThat(seen.exchanges.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(exchangesBefore);
		assertThat(seen.executions.values().stream().mapToInt(AtomicInteger::get).sum()).isEqualTo(executionsBefore);
	}

	@Test
	void aToolHandedOutForOneUsersRequestRunsAsThatUserAndNeverAsAnother() throws Exception {
		JwtAuthenticationToken alice = app.signIn("alice");
		JwtAuthenticationToken bob = app.signIn("bob");
		UserAuthorizationServerApp.Counters seen = app.counters();
		int aliceBefore = seen.executions("alice");
		int bobBefore = seen.executions("bob");
		this.contextRunner.withPropertyValues("mcpx.clients.crm.url=" + app.mcpUrl()).run((context) -> {
			assertThat(context).hasNotFailed();
			ToolCallback[] forAlice = as(alice, context.getBean(ToolCallbackProvider.class)::getToolCallbacks);
			assertThat(forAlice).hasSize(1);
			ToolCallback whoami = forAlice[0];
			ExecutorService other = Executors.newSingleThreadExecutor();
			try {
				// a thread with no user, as Reactor's are: the call runs as alice, and the
				// thread holds no user after it
				Future<String> elsewhere = other.submit(() -> {
					String answer = whoami.call("{\"text\":\"elsewhere\"}");
					assertThat(SecurityContextHolder.getContext().getAuthentication()).isNull();
					return answer;
				});
				assertThat(elsewhere.get(60, TimeUnit.SECONDS)).isEqualTo("alice:elsewhere");
			}
			finally {
				other.shutdownNow();
			}
			// a thread acting for bob: refused, neither as alice nor as bob
			assertThatIllegalStateException()
				.isThrownBy(() -> as(bob, () -> whoami.call("{\"text\":\"mixed\"}")))
				.withMessageContaining("another user")
				.withMessageNotContaining("alice")
				.withMessageNotContaining("bob");
			// alice's own thread: as today's blocking calls
			assertThat(as(alice, () -> whoami.call("{\"text\":\"own\"}"))).isEqualTo("alice:own");
		});
		assertThat(seen.executions("alice") - aliceBefore).isEqualTo(2);
		assertThat(seen.executions("bob") - bobBefore).isZero();
	}

}
