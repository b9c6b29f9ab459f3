package dev.mcpx.sample;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.mcpx.sample.demo.DemoUpstream;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The outside-in story of the catalogue, health and metrics (docs/observability.md) for the
 * sample's {@code demo} upstream, through HTTP only, as an operator would see it: after a
 * restart of the upstream, the recovery is visible in the upstream's health ({@code /actuator/health/mcpx/demo}), in the metrics
 * ({@code mcpx.client.recoveries}, {@code mcpx.client.requests}), in the {@code mcpx}
 * endpoint and in the application's own {@code @EventListener} ({@code /events}); and none
 * of them shows a session id in full.
 * <p>
 * The application gets a context of its own (its own port), so the counts start from the
 * startup demo's one session: generation 1, no recovery. The only thing the test adds to
 * the application is a servlet filter in front of the demo upstream that notes the session
 * ids the client presented, so that the JSON can be searched for them.
 */
@SpringBootTest(webEnvironment = WebEnvironment.DEFINED_PORT)
class SampleAppObservabilityTest {

	private static final SampleHttp app = SampleHttp.onFreePort();

	private static final JsonMapper json = JsonMapper.builder().build();

	/** The MCP-Session-Id values the client sent to the demo upstream, as seen on the wire. */
	static final Set<String> sessionIds = ConcurrentHashMap.newKeySet();

	@DynamicPropertySource
	static void port(DynamicPropertyRegistry registry) {
		app.register(registry);
	}

	@Test
	void aRecoveryShowsInHealthMetricsTheMcpxEndpointAndTheTimeline() {
		assertThat(app.callTool("get_forecast", "{\"city\":\"Oslo\"}").get("text").asString())
			.isEqualTo("Oslo: 4 °C, cloudy");
		JsonNode before = getJson("/actuator/health/mcpx/demo");
		assertThat(before.get("status").asString()).isEqualTo("UP");
		JsonNode details = before.get("details");
		assertThat(details.get("url").asString()).isEqualTo(app.demoUpstreamUrl());
		assertThat(details.get("era").asString()).isEqualTo("legacy");
		assertThat(details.get("protocolVersion").asString()).isNotBlank();
		assertThat(details.get("serverName").asString()).isEqualTo("mcpx-demo-weather");
		assertThat(details.get("serverVersion").asString()).isEqualTo("1.0.0");
		assertThat(details.get("sessionGeneration").asLong()).isEqualTo(1);
		assertThat(details.get("recoveries").asLong()).isZero();
		long since = lastEventSeq();

		app.restartUpstream();
		JsonNode again = app.callTool("get_forecast", "{\"city\":\"Oslo\"}");

		assertThat(again.get("isError").asBoolean()).isFalse();
		assertThat(again.get("text").asString()).isEqualTo("Oslo: 4 °C, cloudy");
		String healthJson = get("/actuator/health/mcpx/demo");
		JsonNode after = json.readTree(healthJson);
		assertThat(after.get("status").asString()).isEqualTo("UP");
		assertThat(after.get("details").get("sessionGeneration").asLong()).isEqualTo(2);
		assertThat(after.get("details").get("recoveries").asLong()).isEqualTo(1);
		assertThat(after.get("details").get("lastRecovery").asString()).isNotBlank();
		// The whole health tree shows the upstream too, under the mcpx contributor.
		assertThat(getJson("/actuator/health").at("/components/mcpx/components/demo/status").asString())
			.isEqualTo("UP");

		JsonNode recoveries = getJson("/actuator/metrics/mcpx.client.recoveries?tag="
				+ encode("upstream:demo") + "&tag=" + encode("kind:session-expiry") + "&tag="
				+ encode("outcome:recovered"));
		assertThat(count(recoveries)).isEqualTo(1.0);

		JsonNode requests = getJson("/actuator/metrics/mcpx.client.requests");
		assertThat(tagValues(requests, "upstream")).containsExactly("demo");
		// The application's requests; handshakes are not among them.
		assertThat(tagValues(requests, "method")).contains("tools/list", "tools/call");
		assertThat(tagValues(requests, "outcome")).contains("success");
		// One at startup and two here: the call that met the 404 and was sent again is one request.
		assertThat(count(getJson("/actuator/metrics/mcpx.client.requests?tag=" + encode("upstream:demo")
				+ "&tag=" + encode("method:tools/call") + "&tag=" + encode("outcome:success"))))
			.isEqualTo(3.0);

		// The recovery dropped the cached tools (listed at startup): the next listing asks the server.
		assertThat(getJson("/upstreams/demo/tools")).hasSize(3);
		assertThat(count(getJson("/actuator/metrics/mcpx.client.requests?tag=" + encode("upstream:demo") + "&tag="
				+ encode("method:tools/list")))).isEqualTo(2.0);

		String mcpxJson = get("/actuator/mcpx");
		JsonNode mcpx = json.readTree(mcpxJson);
		JsonNode demo = mcpx.at("/upstreams/demo");
		assertThat(demo.get("status").asString()).isEqualTo("UP");
		assertThat(demo.get("sessionGeneration").asLong()).isEqualTo(2);
		assertThat(demo.get("recoveries").asLong()).isEqualTo(1);
		assertThat(demo.at("/catalogue/tools/size").asInt()).isEqualTo(3);
		assertThat(demo.at("/catalogue/tools/fresh").asBoolean()).isTrue();
		List<String> endpointEvents = new ArrayList<>();
		mcpx.get("events").forEach((event) -> endpointEvents.add(event.get("type").asString()));
		assertThat(endpointEvents).contains("McpEraDetectedEvent", "McpSessionExpiredEvent",
				"McpSessionRecoveredEvent", "McpCatalogueInvalidatedEvent", "McpRequestReissuedEvent");

		List<JsonNode> events = eventsSince(since);
		assertThat(ofType(events, "session-expired")).singleElement().satisfies((expired) -> {
			assertThat(expired.get("generation").asLong()).isEqualTo(1);
			assertThat(expired.get("status").asInt()).isEqualTo(404);
		});
		assertThat(ofType(events, "session-recovered")).singleElement().satisfies((recovered) -> {
			assertThat(recovered.get("oldGeneration").asLong()).isEqualTo(1);
			assertThat(recovered.get("newGeneration").asLong()).isEqualTo(2);
		});
		assertThat(ofType(events, "catalogue-invalidated")).singleElement().satisfies((invalidated) -> {
			assertThat(invalidated.get("kinds").toString()).contains("TOOLS");
			assertThat(invalidated.get("message").asString()).startsWith("dropped the cached tools");
		});
		assertThat(ofType(events, "request-reissued")).singleElement()
			.satisfies((reissued) -> assertThat(reissued.get("tool").asString()).isEqualTo("get_forecast"));

		// No session id in full, anywhere an operator looks: the client used two sessions
		// (before and after the restart), and the JSON shows at most a prefix of each.
		assertThat(sessionIds).hasSizeGreaterThanOrEqualTo(2);
		List<String> shown = List.of(healthJson, get("/actuator/health"), mcpxJson, get("/events"),
				get("/actuator/metrics/mcpx.client.recoveries"), get("/actuator/metrics/mcpx.client.requests"));
		for (String sessionId : sessionIds) {
			assertThat(shown).allSatisfy((body) -> assertThat(body).doesNotContain(sessionId));
		}
		String redacted = ofType(events, "session-expired").get(0).get("sessionId").asString();
		assertThat(redacted).endsWith("…").hasSizeLessThan(10);
		assertThat(sessionIds).anySatisfy((id) -> assertThat(id).startsWith(redacted.substring(0, 4)));
	}

	@Test
	void theTimelineRecordsEveryKindOfEventItSaw() {
		// At startup the client detected the era and filled its catalogue (listTools).
		List<JsonNode> events = eventsSince(0);
		assertThat(ofType(events, "era-detected")).first().satisfies((detected) -> {
			assertThat(detected.get("upstream").asString()).isEqualTo("demo");
			assertThat(detected.get("era").asString()).isEqualTo("LEGACY");
			assertThat(detected.get("protocolVersion").asString()).isNotBlank();
			assertThat(detected.has("previous")).isFalse();
			assertThat(detected.get("message").asString()).startsWith("speaks the legacy");
		});
	}

	private String get(String path) {
		HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).GET().build());
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
		return response.body();
	}

	private JsonNode getJson(String path) {
		return json.readTree(get(path));
	}

	private List<JsonNode> eventsSince(long seq) {
		List<JsonNode> events = new ArrayList<>();
		getJson("/events").forEach((event) -> {
			if (event.get("seq").asLong() > seq) {
				events.add(event);
			}
		});
		return events;
	}

	private long lastEventSeq() {
		List<JsonNode> events = eventsSince(0);
		return events.isEmpty() ? 0 : events.get(events.size() - 1).get("seq").asLong();
	}

	private static List<JsonNode> ofType(List<JsonNode> events, String type) {
		return events.stream().filter((event) -> type.equals(event.get("type").asString())).toList();
	}

	/** The COUNT measurement of a {@code /actuator/metrics/<name>} answer. */
	private static double count(JsonNode metric) {
		for (JsonNode measurement : metric.get("measurements")) {
			if ("COUNT".equals(measurement.get("statistic").asString())) {
				return measurement.get("value").asDouble();
			}
		}
		throw new AssertionError("No COUNT in " + metric);
	}

	/** The values of one of the {@code availableTags} of a {@code /actuator/metrics/<name>} answer. */
	private static List<String> tagValues(JsonNode metric, String tag) {
		List<String> values = new ArrayList<>();
		for (JsonNode available : metric.get("availableTags")) {
			if (tag.equals(available.get("tag").asString())) {
				available.get("values").forEach((value) -> values.add(value.asString()));
			}
		}
		return values;
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static HttpResponse<String> send(HttpRequest request) {
		return app.send(request);
	}

	private static URI uri(String path) {
		return app.uri(path);
	}

	/**
	 * Notes the session id of every request to the demo upstream, before the upstream sees
	 * it; changes nothing.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class SessionIdRecorder {

		@Bean
		FilterRegistrationBean<Filter> sessionIdRecorder() {
			Filter filter = (request, response, chain) -> {
				String sessionId = ((HttpServletRequest) request).getHeader("Mcp-Session-Id");
				if (sessionId != null) {
					sessionIds.add(sessionId);
				}
				chain.doFilter(request, response);
			};
			FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(filter);
			registration.addUrlPatterns(DemoUpstream.PATH);
			registration.setAsyncSupported(true);
			return registration;
		}

	}

}
