package dev.mcpx.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.http.HttpHeaders;

import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpSessionExpiredEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.event.McpUserEvent;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The events of an upstream that acts for each user: they name no user unless the identity
 * gives users an identifier in events ({@link McpUserIdentity#eventId(String)}); then each
 * user's events reach the application's listeners as {@link McpUserEvent} with that
 * identifier, and never another user's. The server forgets alice's session (2025-11-25
 * basic/transports §Session Management: 404), which the client recovers.
 */
class PerUserEventsWireTest {

	@RegisterExtension
	static McpWireMock wire = McpWireMock.upstream();

	private final List<McpEvent> events = new CopyOnWriteArrayList<>();

	@BeforeEach
	void server() {
		wire.stubFor(method("initialize").withHeader("Authorization", equalTo("Bearer alice-token"))
			.inScenario("alice")
			.willSetStateTo("second session")
			.willReturn(initialized("s-a1-0001")));
		wire.stubFor(method("initialize").withHeader("Authorization", equalTo("Bearer alice-token"))
			.inScenario("alice")
			.whenScenarioStateIs("second session")
			.willReturn(initialized("s-a2-0002")));
		wire.stubFor(method("initialize").withHeader("Authorization", equalTo("Bearer bob-token"))
			.willReturn(initialized("s-b1-0003")));
		wire.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		wire.stubFor(method("tools/list").willReturn(okJson(result("{\"tools\":[{\"name\":\"echo\","
				+ "\"inputSchema\":{\"type\":\"object\"},\"annotations\":{\"readOnlyHint\":true}}]}"))));
		wire.stubFor(method("tools/call").withHeader("Mcp-Session-Id", equalTo("s-a1-0001"))
			.willReturn(aResponse().withStatus(404)));
		for (String session : List.of("s-a2-0002", "s-b1-0003")) {
			wire.stubFor(method("tools/call").withHeader("Mcp-Session-Id", equalTo(session))
				.willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"" + session + "\"}]}"))));
		}
		wire.stubFor(delete(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(200)));
		wire.stubFor(get(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(405)));
	}

	private static ResponseDefinitionBuilder initialized(String session) {
		return okJson(result("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
				+ "\"serverInfo\":{\"name\":\"per-user\",\"version\":\"1\"}}")).withHeader("Mcp-Session-Id", session);
	}

	@Test
	void aUsersEventsCarryTheIdentifierTheIdentityGivesAndOnlyThatUsers() {
		run(new Users(true));
		List<McpUserEvent> userEvents = this.events.stream()
			.filter(McpUserEvent.class::isInstance)
			.map(McpUserEvent.class::cast)
			.toList();
		assertThat(this.events).as("every event is a user's").allMatch(McpUserEvent.class::isInstance);
		assertThat(userEvents).extracting(McpUserEvent::event)
			.hasAtLeastOneElementOfType(McpSessionExpiredEvent.class)
			.hasAtLeastOneElementOfType(McpSessionRecoveredEvent.class);
		// only alice's session was forgotten: every event is hers, none is bob's
		assertThat(userEvents).extracting(McpUserEvent::user).containsOnly("salted(alice)");
		assertThat(userEvents).allSatisfy((event) -> {
			assertThat(event.upstream()).isEqualTo("crm");
			assertThat(event.toString()).doesNotContain("alice-token");
		});
	}

	@Test
	void withoutAnIdentifierEventsNameNoUser() {
		run(new Users(false));
		assertThat(this.events).extracting(Object::getClass)
			.contains(McpSessionExpiredEvent.class, McpSessionRecoveredEvent.class)
			.doesNotContain(McpUserEvent.class);
		assertThat(this.events).allSatisfy((event) -> assertThat(event.toString()).doesNotContain("alice", "bob"));
	}

	private void run(Users users) {
		try (McpClient client = McpClient.builder("crm", wire.mcpUri())
			.protocol(ProtocolMode.LEGACY)
			.listenForChanges(false)
			.requestTimeout(Duration.ofSeconds(10))
			.userIdentity(users)
			.eventListener(this.events::add)
			.build()) {
			users.current = "bob";
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("s-b1-0003");
			users.current = "alice";
			// alice's session is gone (404): the client opens another and sends the call again
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("s-a2-0002");
		}
	}

	/** Two users; the calling thread's user is whoever the test says, each with a bearer token. */
	private static final class Users implements McpUserIdentity {

		private final boolean identified;

		volatile @Nullable String current;

		Users(boolean identified) {
			this.identified = identified;
		}

		@Override
		public @Nullable String currentUser() {
			return this.current;
		}

		@Override
		public McpCredentials credentials(String user) {
			return new McpCredentials() {

				@Override
				public void apply(HttpHeaders headers) {
					headers.setBearerAuth(user + "-token");
				}

				@Override
				public boolean refresh() {
					return false;
				}

			};
		}

		@Override
		public @Nullable String eventId(String user) {
			return this.identified ? "salted(" + user + ")" : null;
		}

	}

}
