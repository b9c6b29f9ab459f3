package dev.mcpx.autoconfigure.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.mcpx.client.McpClient;
import dev.mcpx.testsupport.JavaSdkServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Actuator's web endpoints as an operator reads them, in an application with
 * {@code spring-boot-starter-actuator}, against the official MCP Java SDK server: the
 * {@code mcpx} health component and endpoint show the upstream and its recovery, and never
 * a header value or a session id, although both are sent with every request.
 */
@SpringBootTest(classes = McpxActuatorWebTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "mcpx.clients.sdk.headers.Authorization=Bearer " + McpxActuatorWebTest.SECRET,
				"management.endpoints.web.exposure.include=health,mcpx",
				"management.endpoint.health.show-details=always" })
class McpxActuatorWebTest {

	static final String SECRET = "sekret-123";

	private static final JsonMapper json = JsonMapper.builder().build();

	private static JavaSdkServer server;

	@LocalServerPort
	int port;

	@Autowired
	@Qualifier("sdk")
	McpClient client;

	@Autowired
	App app;

	@BeforeAll
	static void startServer() {
		server = JavaSdkServer.start();
	}

	@AfterAll
	static void stopServer() {
		server.close();
	}

	@DynamicPropertySource
	static void upstream(DynamicPropertyRegistry registry) {
		registry.add("mcpx.clients.sdk.url", () -> server.url());
	}

	@Test
	void healthAndTheMcpxEndpointShowTheRecoveryAndNoSecret() throws Exception {
		assertThat(get("/actuator/health/mcpx/sdk").path("status").asString()).isEqualTo("UNKNOWN");

		this.client.ping();
		server.restart();
		this.client.callTool("echo", Map.of("text", "after restart"));

		JsonNode sdk = get("/actuator/health/mcpx").path("components").path("sdk");
		assertThat(sdk.path("status").asString()).isEqualTo("UP");
		assertThat(sdk.path("details").path("reason").asString()).isEqualTo("the last exchange succeeded");
		assertThat(sdk.path("details").path("recoveries").asLong()).isEqualTo(1);
		assertThat(sdk.path("details").path("serverName").asString()).isEqualTo("java-sdk-test-server");
		assertThat(sdk.path("details").path("url").asString()).isEqualTo(server.url());

		JsonNode mcpx = get("/actuator/mcpx");
		assertThat(mcpx.path("upstreams").path("sdk").path("status").asString()).isEqualTo("UP");
		assertThat(mcpx.path("upstreams").path("sdk").path("sessionGeneration").asLong()).isEqualTo(2);
		List<String> types = mcpx.path("events").valueStream().map((event) -> event.path("type").asString()).toList();
		assertThat(types).containsSubsequence("McpSessionExpiredEvent", "McpSessionRecoveredEvent");
		assertThat(get("/actuator/mcpx/sdk").path("events").size()).isEqualTo(mcpx.path("events").size());

		// Both sessions' ids went over the wire with the secret; none may show.
		assertThat(this.app.sessionIds).hasSize(2);
		for (String path : List.of("/actuator/health", "/actuator/health/mcpx", "/actuator/health/mcpx/sdk",
				"/actuator/mcpx", "/actuator/mcpx/sdk")) {
			String body = getText(path);
			assertThat(body).as(path).doesNotContain(SECRET).doesNotContain("Bearer");
			for (String sessionId : this.app.sessionIds) {
				assertThat(body).as(path).doesNotContain(sessionId);
			}
		}
	}

	private JsonNode get(String path) throws IOException, InterruptedException {
		return json.readTree(getText(path));
	}

	private String getText(String path) throws IOException, InterruptedException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofString());
		// The health of a component that is DOWN or UNKNOWN may be answered 503; the body is the same.
		assertThat(response.statusCode()).as(path).isIn(200, 503);
		return response.body();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

		/** Every session id the upstream handed out, as the client received them. */
		final Set<String> sessionIds = new CopyOnWriteArraySet<>();

		@Bean
		RestClientCustomizer sessionIdRecorder() {
			return (builder) -> builder.requestInterceptor((request, body, execution) -> {
				ClientHttpResponse response = execution.execute(request, body);
				String sessionId = response.getHeaders().getFirst("Mcp-Session-Id");
				if (sessionId != null) {
					this.sessionIds.add(sessionId);
				}
				return response;
			});
		}

	}

}
