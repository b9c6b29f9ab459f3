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
 * The sample's Spring AI endpoint: the tool definitions a model would get from mcpx, read
 * from the demo upstream, over HTTP; and the chat endpoint without a model.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class SampleAppSpringAiTest {

	private static final SampleHttp app = SampleHttp.onFreePort();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		app.register(registry);
	}

	@Test
	void theToolDefinitionsAModelWouldGetAreListedWithTheirSchemas() {
		HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/spring-ai/tools")).GET().build());
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode tools = JsonMapper.shared().readTree(response.body());
		assertThat(tools.isArray()).isTrue();
		JsonNode forecast = null;
		for (JsonNode tool : tools) {
			assertThat(tool.path("name").asString()).matches("^[a-zA-Z0-9_-]{1,64}$");
			if (tool.path("name").asString().equals("get_forecast")) {
				forecast = tool;
			}
		}
		assertThat(forecast).as("the demo upstream's get_forecast tool in %s", tools).isNotNull();
		assertThat(forecast.path("inputSchema").path("required")).hasSize(1);
		assertThat(forecast.path("inputSchema").path("properties").has("city")).isTrue();
	}

	@Test
	void withoutAModelTheChatEndpointSaysHowToPlugOneIn() {
		HttpResponse<String> response = app.send(HttpRequest.newBuilder(app.uri("/spring-ai/chat"))
			.POST(HttpRequest.BodyPublishers.ofString("hello"))
			.build());
		assertThat(response.statusCode()).isEqualTo(503);
	}

}
