package dev.mcpx.client.oauth;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.model.CallToolResult;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client credentials against a real authorization server: Spring Authorization Server
 * issues short-lived JWTs for an MCP server (the official Java SDK server) behind Spring
 * Security's resource server, which finds the authorization server for the client through
 * its 401 and its protected resource metadata. Sixteen threads call a tool for longer than
 * several token lifetimes; every call succeeds, and the authorization server sees one token
 * request per token the MCP server accepted: no caller requests a token another caller
 * already replaced.
 */
class SpringAuthorizationServerTest {

	private static final Duration TOKEN_LIFETIME = Duration.ofSeconds(3);

	private static final int THREADS = 16;

	/** Long enough for several tokens to expire while every thread keeps calling. */
	private static final Duration RUN = Duration.ofSeconds(10);

	private static final int MIN_CALLS = 6;

	private static AuthorizationServerApp app;

	@BeforeAll
	static void start() {
		app = AuthorizationServerApp.start(TOKEN_LIFETIME);
	}

	@AfterAll
	static void stop() {
		if (app != null) {
			app.close();
		}
	}

	private static McpOAuthCredentials credentials() {
		return McpOAuthCredentials.builder("protected", URI.create(app.mcpUrl()))
			.grant(McpOAuthGrant.CLIENT_CREDENTIALS)
			.client(AuthorizationServerApp.CLIENT_ID, AuthorizationServerApp.CLIENT_SECRET)
			.build();
	}

	@Test
	void tokensThatExpireUnderSixteenThreadsCostOneTokenRequestEachAndNoCallFails() throws Exception {
		McpOAuthCredentials credentials = credentials();
		int tokenRequestsBefore = app.counters().tokenRequests.get();
		int executionsBefore = app.counters().executions.get();
		int acceptedBefore = app.counters().acceptedTokens.size();
		List<Future<Integer>> workers = new ArrayList<>();
		long started = System.nanoTime();
		try (McpClient client = McpClient.builder("protected", URI.create(app.mcpUrl()))
			.credentials(credentials)
			.requestTimeout(Duration.ofSeconds(30))
			.build()) {
			ExecutorService pool = Executors.newFixedThreadPool(THREADS);
			CountDownLatch go = new CountDownLatch(1);
			long deadline = started + RUN.toNanos();
			for (int t = 0; t < THREADS; t++) {
				int thread = t;
				workers.add(pool.submit(() -> {
					go.await();
					int calls = 0;
					// the run lasts RUN (several token lifetimes) and each thread makes MIN_CALLS however busy
					// the machine is, so the renewals always happen under concurrent calls
					while (System.nanoTime() < deadline || calls < MIN_CALLS) {
						String text = "t" + thread + "-" + calls;
						CallToolResult result = client.callTool("echo", Map.of("text", text));
						assertThat(result.isError()).isFalse();
						assertThat(result.text()).isEqualTo(text);
						calls++;
					}
					return calls;
				}));
			}
			go.countDown();
			int calls = 0;
			for (Future<Integer> worker : workers) {
				calls += worker.get(RUN.toSeconds() + 60, TimeUnit.SECONDS);
			}
			pool.shutdown();
			long elapsedMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();

			int tokenRequests = app.counters().tokenRequests.get() - tokenRequestsBefore;
			int acceptedTokens = app.counters().acceptedTokens.size() - acceptedBefore;
			System.out.printf("%d threads, %d calls in %d ms: %d token requests, %d tokens accepted, %d 401s%n",
					THREADS, calls, elapsedMillis, tokenRequests, acceptedTokens, app.counters().unauthorized.get());
			assertThat(app.counters().executions.get() - executionsBefore).as("tool executions the server counted")
				.isEqualTo(calls);
			assertThat(tokenRequests).as("token requests at the authorization server over %d ms", elapsedMillis)
				.isGreaterThanOrEqualTo(3)
				.isEqualTo(credentials.tokenRequests())
				// one request per token: every token obtained was used, none was a duplicate
				.isEqualTo(acceptedTokens)
				// and no more tokens than expiries: each lives its lifetime less about a second
				// (JWT timestamps are whole seconds) and the renewal margin
				.isLessThanOrEqualTo((int) (elapsedMillis / (TOKEN_LIFETIME.toMillis() - 1300)) + 1);
			assertThat(app.counters().audiences).as("RFC 8707 resource of the token requests")
				.containsExactly(app.mcpUrl());
		}
	}

}
