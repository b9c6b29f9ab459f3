package dev.mcpx.sample;

import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The secure demo upstream reached as the signed-in user, as DEMO.md shows it: alice and bob
 * each sign in at the embedded authorization server, call {@code secure-user}
 * ({@code oauth.identity: user}) through the sample with their own token, and mcpx exchanges
 * that token for one to the upstream (RFC 8693 token exchange, RFC 8707 resource). What the
 * server recorded is the evidence: every call it ran carried the subject of the user who made
 * it, never the other user's nor the application's, with one exchange per user; a user's own
 * token does not open the upstream, and a call without a user sends nothing.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class SampleAppSignedInUserTest {

	private static final SampleHttp app = SampleHttp.onFreePort();

	private static final JsonMapper json = JsonMapper.shared();

	private static final int CALLS_PER_THREAD = 5;

	private static final int THREADS_PER_USER = 2;

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		app.register(registry);
	}

	@Test
	void eachUsersCallsReachTheServerWithThatUsersSubjectOnly() throws Exception {
		Map<String, String> tokens = Map.of("alice", signIn("alice"), "bob", signIn("bob"));
		JsonNode before = calls();
		int seenBefore = before.path("calls").size();
		int exchangedBefore = before.path("tokensExchanged").asInt();

		ExecutorService pool = Executors.newFixedThreadPool(2 * THREADS_PER_USER);
		List<Future<Void>> workers = new ArrayList<>();
		try {
			for (int t = 0; t < THREADS_PER_USER; t++) {
				for (String user : tokens.keySet()) {
					String token = tokens.get(user);
					workers.add(pool.submit(() -> {
						for (int i = 0; i < CALLS_PER_THREAD; i++) {
							HttpResponse<String> response = callWhoami("/me/upstreams/secure-user/tools/whoami",
									token);
							assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
							// the server answered for this caller, never the other user
							assertThat(json.readTree(response.body()).get("text").asString())
								.isEqualTo("You are " + user + " (token issued to client mcpx-sample)");
						}
						return null;
					}));
				}
			}
			for (Future<Void> worker : workers) {
				worker.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}

		JsonNode seen = calls();
		JsonNode calls = seen.path("calls");
		Map<String, Integer> bySubject = new HashMap<>();
		for (int i = seenBefore; i < calls.size(); i++) {
			assertThat(calls.get(i).path("tool").asString()).isEqualTo("whoami");
			assertThat(calls.get(i).path("clientId").asString()).isEqualTo("mcpx-sample");
			bySubject.merge(calls.get(i).path("subject").asString(), 1, Integer::sum);
		}
		int perUser = THREADS_PER_USER * CALLS_PER_THREAD;
		assertThat(bySubject).as("calls the server ran, by the subject of their token")
			.isEqualTo(Map.of("alice", perUser, "bob", perUser));
		// each user's token was exchanged once, for a token that served all of that user's calls
		assertThat(seen.path("tokensExchanged").asInt() - exchangedBefore).as("token exchanges").isEqualTo(2);
		HttpResponse<String> health = app
			.send(HttpRequest.newBuilder(app.uri("/actuator/health/mcpx/secure-user")).GET().build());
		JsonNode details = json.readTree(health.body()).path("details");
		assertThat(details.path("userSessions").asInt()).as("users with a session of their own: %s", details)
			.isEqualTo(2);
		assertThat(health.body()).doesNotContain("alice", "bob", tokens.get("alice"), tokens.get("bob"));
	}

	@Test
	void aUsersOwnTokenDoesNotOpenTheUpstreamOnlyTheExchangedOneDoes() {
		HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/secure/mcp"))
			.header("Authorization", "Bearer " + signIn("alice"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
			.build());
		// issued for the sample, not for the upstream (RFC 8707 audience)
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
				(challenge) -> assertThat(challenge).contains("invalid_token"));
	}

	@Test
	void withoutAUserTheCallIsRefusedAndNothingReachesTheServer() {
		int before = calls().path("calls").size();
		HttpResponse<String> anonymous = callWhoami("/upstreams/secure-user/tools/whoami", null);
		assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
		assertThat(anonymous.body()).contains("acts for the signed-in user");
		HttpResponse<String> noToken = callWhoami("/me/upstreams/secure-user/tools/whoami", null);
		assertThat(noToken.statusCode()).isEqualTo(401);
		assertThat(calls().path("calls").size()).as("tool calls the server recorded").isEqualTo(before);
	}

	/** The demo sign-in of DEMO.md: the user's token from the embedded authorization server. */
	private static String signIn(String user) {
		String form = "grant_type=client_credentials&scope=" + URLEncoder.encode("tickets:read", StandardCharsets.UTF_8);
		HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/oauth2/token"))
			.header("Authorization",
					"Basic " + Base64.getEncoder()
						.encodeToString((user + ":" + user + "-password").getBytes(StandardCharsets.UTF_8)))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(form))
			.build());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json.readTree(response.body()).get("access_token").asString();
	}

	private static HttpResponse<String> callWhoami(String path, String token) {
		HttpRequest.Builder request = HttpRequest.newBuilder(app.uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{}"));
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		return app.send(request.build());
	}

	private static JsonNode calls() {
		HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/secure/calls")).GET().build());
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body());
	}

}
