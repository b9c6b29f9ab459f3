package dev.mcpx.sample;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The secure demo upstream, as DEMO.md shows it: behind Spring Security's resource server,
 * it refuses a request without a token (401 naming its protected resource metadata); through
 * mcpx, with the client credentials of {@code application.yml}, a tool call reaches it with a
 * token from the embedded Spring Authorization Server, and the server saw the subject of the
 * token (the client {@code mcpx-sample}) on every call, with one token for all of them.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class SampleAppSecureUpstreamTest {

	private static final SampleHttp app = SampleHttp.onFreePort();

	private static final JsonMapper json = JsonMapper.shared();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		app.register(registry);
	}

	@Test
	void withoutATokenTheSecureUpstreamRefusesAndNamesItsMetadata() {
		HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/secure/mcp"))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
			.build());
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
				(challenge) -> assertThat(challenge).contains("resource_metadata=").contains("oauth-protected-resource"));
	}

	@Test
	void throughMcpxEveryCallReachesTheServerAsTheClientWithOneToken() {
		int before = calls().path("calls").size();
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/upstreams/secure/tools/whoami"))
				.header("Content-Type", "application/json")
				.POST(HttpRequest.BodyPublishers.ofString("{}"))
				.build());
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			assertThat(json.readTree(response.body()).get("text").asString())
				.isEqualTo("You are mcpx-sample (token issued to client mcpx-sample)");
		}
		JsonNode seen = calls();
		JsonNode calls = seen.path("calls");
		assertThat(calls.size() - before).as("tool calls the server recorded").isEqualTo(3);
		for (int i = before; i < calls.size(); i++) {
			assertThat(calls.get(i).path("tool").asString()).isEqualTo("whoami");
			assertThat(calls.get(i).path("subject").asString()).isEqualTo("mcpx-sample");
		}
		assertThat(seen.path("tokensIssued").asInt()).as("tokens the authorization server issued").isEqualTo(1);
	}

	private JsonNode calls() {
		HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/secure/calls")).GET().build());
		assertThat(response.statusCode()).isEqualTo(200);
		return json.readTree(response.body());
	}

}
