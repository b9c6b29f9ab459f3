package dev.mcpx.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.EventListener;
import org.wiremock.spring.ConfigureWireMock;
import org.wiremock.spring.EnableWireMock;
import org.wiremock.spring.InjectWireMock;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.error.McpSessionExpiredException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpReissueRefusedEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static dev.mcpx.testsupport.McpWireMock.sent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The whole starter in a Spring Boot application against a WireMock upstream: Boot's
 * {@code RestClient.Builder} is used, properties reach the client, and recovery events
 * arrive at the application's {@code @EventListener}.
 */
@SpringBootTest(classes = McpxApplicationWireMockTest.App.class,
		properties = { "mcpx.clients.wire.url=${upstream.url}/mcp", "mcpx.defaults.headers.X-Env=test",
				"mcpx.defaults.headers.X-Team=defaults", "mcpx.clients.wire.headers.X-Team=wire",
				"mcpx.clients.wire.recovery.tools.delete_item=never" })
@EnableWireMock(@ConfigureWireMock(baseUrlProperties = "upstream.url", globalTemplating = true))
class McpxApplicationWireMockTest {

	@InjectWireMock
	WireMockServer wire;

	@Autowired
	@Qualifier("wire")
	McpClient client;

	@Autowired
	Events events;

	private void stubSessionsAThenB() {
		String init = result("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{},\"prompts\":{},\"resources\":{}},\"serverInfo\":{\"name\":\"w\",\"version\":\"1\"}}");
		this.wire.stubFor(method("initialize").inScenario("s").whenScenarioStateIs(Scenario.STARTED)
			.willReturn(okJson(init).withHeader("Mcp-Session-Id", "session-A-0123456789"))
			.willSetStateTo("A"));
		this.wire.stubFor(method("initialize").inScenario("s").whenScenarioStateIs("A")
			.willReturn(okJson(init).withHeader("Mcp-Session-Id", "session-B-0123456789")));
		this.wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		this.wire.stubFor(method("tools/call").withHeader("Mcp-Session-Id", equalTo("session-B-0123456789"))
			.willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"))));
		this.wire.stubFor(method("ping").withHeader("Mcp-Session-Id", equalTo("session-A-0123456789"))
			.willReturn(okJson(result("{}"))));
		this.wire.stubFor(post(urlEqualTo("/mcp")).withHeader("Mcp-Session-Id", equalTo("session-A-0123456789"))
			.withRequestBody(matchingJsonPath("$.method", equalTo("tools/call")))
			.willReturn(aResponse().withStatus(404)));
	}

	@Test
	void recoveryIsVisibleToTheApplicationsEventListenerAndPropertiesReachTheWire() {
		stubSessionsAThenB();
		this.client.ping();

		assertThat(this.client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		assertThat(this.events.received).filteredOn(McpSessionExpiredEvent.class::isInstance).hasSize(1);
		assertThat(this.events.received).filteredOn(McpSessionRecoveredEvent.class::isInstance).hasSize(1);

		// The per-tool property: never re-sent, even after an expiry.
		this.wire.stubFor(post(urlEqualTo("/mcp")).withHeader("Mcp-Session-Id", equalTo("session-B-0123456789"))
			.withRequestBody(matchingJsonPath("$.params.name", equalTo("delete_item")))
			.atPriority(1)
			.willReturn(aResponse().withStatus(404)));
		assertThatThrownBy(() -> this.client.callTool("delete_item", Map.of()))
			.isInstanceOf(McpSessionExpiredException.class);
		assertThat(this.events.received).filteredOn(McpReissueRefusedEvent.class::isInstance).hasSize(1);

		// Headers: defaults merged with the upstream's own, which win; Boot's builder customizers apply.
		this.wire.verify(postRequestedFor(urlEqualTo("/mcp")).withHeader("X-Env", equalTo("test"))
			.withHeader("X-Team", equalTo("wire"))
			.withHeader("X-Customized-By", equalTo("boot")));
	}

	@Autowired
	org.springframework.context.ApplicationEventPublisher publisher;

	@Test
	void anApplicationDropsCachedListingsByPublishingAnEvent() {
		stubSessionsAThenB();
		this.wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[]}"))));
		this.client.ping();
		this.client.listTools();
		this.client.listTools();
		this.wire.verify(1, sent("tools/list"));

		this.publisher.publishEvent(new dev.mcpx.client.event.McpCatalogueInvalidatedEvent("wire",
				java.util.Set.of(dev.mcpx.client.model.CatalogueKind.TOOLS), "application asked"));
		this.client.listTools();

		this.wire.verify(2, sent("tools/list"));
	}

	// no component scan: the test fixtures beside this package (an authorization server's
	// configuration among them) are not part of this application
	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		Events events() {
			return new Events();
		}

		@Bean
		RestClientCustomizer bootCustomizer() {
			return (builder) -> builder.defaultHeader("X-Customized-By", "boot");
		}

	}

	static class Events {

		final List<McpEvent> received = new CopyOnWriteArrayList<>();

		@EventListener
		void on(McpEvent event) {
			this.received.add(event);
		}

	}

}
