package dev.mcpx.client.oauth;

import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpCredentials;
import dev.mcpx.client.McpUserIdentity;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A per-user upstream's token exchange (RFC 8693) against a scripted authorization server that
 * answers badly: each failure is a typed {@link McpAuthenticationException} whose cause names
 * the step, the exchange is tried a bounded number of times per call (never in a loop), and no
 * token, the user's or an exchanged one, is in any message.
 */
class TokenExchangeWireTest {

	@RegisterExtension
	static McpWireMock mcp = McpWireMock.upstream();

	@RegisterExtension
	static McpWireMock auth = McpWireMock.plain();

	private static final String USER_TOKEN = "user-token-of-alice-never-shown";

	private static final String EXCHANGED = "exchanged-token-for-the-mcp-server";

	/** The user of the calling thread, as the application's security context would give it. */
	private final AtomicReference<@Nullable McpSubjectToken> user = new AtomicReference<>(
			new McpSubjectToken(USER_TOKEN, Instant.now().plusSeconds(600)));

	@BeforeEach
	void servers() {
		mcp.resetAll();
		auth.resetAll();
		String as = auth.baseUrl();
		mcp.stubFor(get(urlEqualTo("/.well-known/oauth-protected-resource/mcp"))
			.willReturn(okJson("{\"resource\":\"" + mcp.baseUrl() + "/mcp\",\"authorization_servers\":[\"" + as
					+ "\"]}")));
		auth.stubFor(get(urlEqualTo("/.well-known/oauth-authorization-server")).willReturn(okJson(metadata(as))));
		mcp.stubFor(method("initialize").atPriority(5).willReturn(unauthorized()));
		mcp.stubFor(method("initialize").atPriority(1)
			.withHeader("Authorization", equalTo("Bearer " + EXCHANGED))
			.willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},"
					+ "\"serverInfo\":{\"name\":\"guarded\",\"version\":\"1\"}}"))
				.withHeader("Mcp-Session-Id", "session-of-alice-0001")));
		mcp.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		mcp.stubFor(method("tools/call").atPriority(5).willReturn(unauthorized()));
		mcp.stubFor(method("tools/call").atPriority(1)
			.withHeader("Authorization", equalTo("Bearer " + EXCHANGED))
			.willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"))));
	}

	private static String metadata(String issuer) {
		return metadata(issuer, issuer + "/token");
	}

	private static String metadata(String issuer, String tokenEndpoint) {
		return "{\"issuer\":\"" + issuer + "\",\"token_endpoint\":\"" + tokenEndpoint + "\","
				+ "\"response_types_supported\":[\"code\"],"
				+ "\"token_endpoint_auth_methods_supported\":[\"client_secret_basic\"]}";
	}

	private static ResponseDefinitionBuilder unauthorized() {
		return aResponse().withStatus(401)
			.withHeader("WWW-Authenticate",
					"Bearer resource_metadata=\"" + mcp.baseUrl() + "/.well-known/oauth-protected-resource/mcp\"");
	}

	private static ResponseDefinitionBuilder exchanged(@Nullable String issuedTokenType) {
		return okJson("{\"access_token\":\"" + EXCHANGED + "\",\"token_type\":\"Bearer\",\"expires_in\":3600"
				+ ((issuedTokenType != null) ? ",\"issued_token_type\":\"" + issuedTokenType + "\"" : "") + "}");
	}

	private McpClient client() {
		McpOAuthCredentials.Builder credentials = McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.client("app-client", "app-secret")
			.timeouts(Duration.ofSeconds(2), Duration.ofSeconds(5));
		return McpClient.builder("guarded", mcp.mcpUri())
			.protocol(ProtocolMode.LEGACY)
			.listenForChanges(false)
			.requestTimeout(Duration.ofSeconds(20))
			.userIdentity(new McpUserIdentity() {

				@Override
				public @Nullable String currentUser() {
					return (TokenExchangeWireTest.this.user.get() != null) ? "alice-key" : null;
				}

				@Override
				public McpCredentials credentials(String key) {
					return credentials.tokenExchange(TokenExchangeWireTest.this.user::get).build();
				}

			})
			.build();
	}

	private static int exchanges() {
		return auth.findAll(postRequestedFor(urlEqualTo("/token"))).size();
	}

	private static void assertNoToken(Throwable failure) {
		for (Throwable t = failure; t != null; t = t.getCause()) {
			assertThat(String.valueOf(t.getMessage())).doesNotContain(USER_TOKEN, EXCHANGED, "app-secret");
			for (Throwable suppressed : t.getSuppressed()) {
				assertThat(String.valueOf(suppressed.getMessage())).doesNotContain(USER_TOKEN, EXCHANGED, "app-secret");
			}
		}
	}

	@Test
	void theExchangeSendsTheUsersTokenForTheUpstreamAndTheExchangedTokenGoesOnlyToTheUpstream() {
		auth.stubFor(post(urlEqualTo("/token")).willReturn(exchanged("urn:ietf:params:oauth:token-type:access_token")));
		try (McpClient client = client()) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		// RFC 8693 §2.1 and RFC 8707: the user's token as the subject, the upstream as the resource
		auth.verify(1, postRequestedFor(urlEqualTo("/token"))
			.withRequestBody(containing("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange"))
			.withRequestBody(containing("subject_token=" + USER_TOKEN))
			.withRequestBody(containing("subject_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token"))
			.withRequestBody(containing("resource=" + java.net.URLEncoder.encode(mcp.baseUrl() + "/mcp",
					java.nio.charset.StandardCharsets.UTF_8))));
		assertThat(mcp.findAll(postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization",
				equalTo("Bearer " + USER_TOKEN)))).as("requests that carried the user's own token").isEmpty();
	}

	@Test
	void aRefusedExchangeIsATypedErrorNamingTheStepAndIsNotRepeated() {
		auth.stubFor(post(urlEqualTo("/token")).willReturn(aResponse().withStatus(400)
			.withHeader("Content-Type", "application/json")
			.withBody("{\"error\":\"invalid_grant\",\"error_description\":\"subject token " + USER_TOKEN
					+ " is not valid for this audience\"}")));
		try (McpClient client = client()) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.satisfies((failure) -> {
					assertThat(failure.getCause()).hasMessageContaining("token exchange")
						.hasMessageContaining("invalid_grant");
					assertNoToken(failure);
				});
		}
		// one for the tool listing the call makes first (the tool was unknown), one for the call:
		// each refusal ends its request, none is asked again
		assertThat(exchanges()).as("exchange requests for one call").isLessThanOrEqualTo(2);
	}

	@Test
	void aResponseWithoutIssuedTokenTypeIsRefusedAndItsTokenNeverSent() {
		auth.stubFor(post(urlEqualTo("/token")).willReturn(exchanged(null)));
		try (McpClient client = client()) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.satisfies((failure) -> {
					assertThat(failure.getCause()).hasMessageContaining("issued_token_type");
					assertNoToken(failure);
				});
		}
		assertThat(exchanges()).as("exchange requests for one call").isLessThanOrEqualTo(2);
		assertThat(mcp.findAll(postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization",
				equalTo("Bearer " + EXCHANGED)))).as("requests that carried the unusable token").isEmpty();
	}

	@Test
	void aTokenOfAnotherTypeIsNotSentToTheUpstream() {
		auth.stubFor(post(urlEqualTo("/token")).willReturn(exchanged("urn:ietf:params:oauth:token-type:id_token")));
		try (McpClient client = client()) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.satisfies((failure) -> assertThat(failure.getCause()).hasMessageContaining("not an access token"));
		}
		assertThat(mcp.findAll(postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization",
				equalTo("Bearer " + EXCHANGED)))).isEmpty();
	}

	@Test
	void anAuthorizationServerThatIsDownIsATypedErrorNamingTheExchange() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		auth.stubFor(get(urlEqualTo("/.well-known/oauth-authorization-server"))
			.willReturn(okJson(metadata(auth.baseUrl(), "http://127.0.0.1:" + closedPort + "/token"))));
		try (McpClient client = client()) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.satisfies((failure) -> {
					assertThat(failure.getCause()).hasMessageContaining("token exchange")
						.hasMessageContaining("failed: ")
						.hasMessageContaining("ConnectException");
					assertNoToken(failure);
				});
		}
	}

	@Test
	void anExpiredUserTokenIsNeverSentToTheAuthorizationServer() {
		this.user.set(new McpSubjectToken(USER_TOKEN, Instant.now().minusSeconds(1)));
		auth.stubFor(post(urlEqualTo("/token")).willReturn(exchanged("urn:ietf:params:oauth:token-type:access_token")));
		try (McpClient client = client()) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.satisfies((failure) -> assertThat(failure.getCause()).hasMessageContaining("expired"));
		}
		assertThat(exchanges()).isZero();
	}

	@Test
	void theSubjectTokensToStringShowsNoToken() {
		assertThat(new McpSubjectToken(USER_TOKEN, null).toString()).doesNotContain(USER_TOKEN);
	}

}
