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

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.testsupport.McpWireMock;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link McpOAuthCredentials} against scripted servers: an MCP server and, on another origin,
 * its authorization server. What the servers counted is asserted: token requests, where
 * tokens were sent, how often a refused call was tried.
 */
class McpOAuthCredentialsWireTest {

	@RegisterExtension
	static McpWireMock mcp = McpWireMock.upstream();

	@RegisterExtension
	static McpWireMock auth = McpWireMock.plain();

	private static final String TOKEN = "tok-1-for-the-mcp-server";

	@BeforeEach
	void servers() {
		mcp.resetAll();
		auth.resetAll();
		String as = auth.baseUrl();
		mcp.stubFor(get(urlEqualTo("/.well-known/oauth-protected-resource/mcp"))
			.willReturn(okJson("{\"resource\":\"" + mcp.baseUrl() + "/mcp\",\"authorization_servers\":[\"" + as
					+ "\"],\"scopes_supported\":[\"mcp\"]}")));
		auth.stubFor(get(urlEqualTo("/.well-known/oauth-authorization-server")).willReturn(okJson(metadata(as, true))));
		auth.stubFor(post(urlEqualTo("/token")).willReturn(token(TOKEN).withFixedDelay(300)));
		// the MCP server: handshake open to all, tool calls need the token
		mcp.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"guarded\",\"version\":\"1\"}}"))
			.withHeader("Mcp-Session-Id", "session-guarded-0001")));
		mcp.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		mcp.stubFor(method("ping").willReturn(okJson(result("{}"))));
		mcp.stubFor(method("tools/call").atPriority(5).willReturn(unauthorized()));
		mcp.stubFor(method("tools/call").atPriority(1)
			.withHeader("Authorization", equalTo("Bearer " + TOKEN))
			.willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"))));
		mcp.stubFor(get(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(405)));
	}

	private static String metadata(String issuer, boolean pkce) {
		return "{\"issuer\":\"" + issuer + "\",\"token_endpoint\":\"" + issuer + "/token\",\"authorization_endpoint\":\""
				+ issuer + "/authorize\",\"registration_endpoint\":\"" + issuer + "/register\","
				+ "\"response_types_supported\":[\"code\"],"
				+ (pkce ? "\"code_challenge_methods_supported\":[\"S256\"]," : "")
				+ "\"token_endpoint_auth_methods_supported\":[\"client_secret_basic\",\"none\"]}";
	}

	private static ResponseDefinitionBuilder token(String value) {
		return okJson("{\"access_token\":\"" + value + "\",\"token_type\":\"Bearer\",\"expires_in\":3600}");
	}

	private static ResponseDefinitionBuilder unauthorized() {
		return aResponse().withStatus(401)
			.withHeader("WWW-Authenticate",
					"Bearer resource_metadata=\"" + mcp.baseUrl() + "/.well-known/oauth-protected-resource/mcp\"");
	}

	private static McpOAuthCredentials.Builder clientCredentials() {
		return McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.grant(McpOAuthGrant.CLIENT_CREDENTIALS)
			.client("wire-client", "wire-secret");
	}

	private static McpClient client(McpOAuthCredentials credentials) {
		return McpClient.builder("guarded", mcp.mcpUri())
			.protocol(ProtocolMode.LEGACY)
			.listenForChanges(false)
			.requestTimeout(Duration.ofSeconds(20))
			.credentials(credentials)
			.build();
	}

	private static int tokenRequests() {
		return auth.findAll(postRequestedFor(urlEqualTo("/token"))).size();
	}

	@Test
	void sixteenCallersRefusedAtOnceShareOneTokenRequest() throws Exception {
		McpOAuthCredentials credentials = clientCredentials().build();
		try (McpClient client = client(credentials)) {
			client.ping();
			ExecutorService pool = Executors.newFixedThreadPool(16);
			CountDownLatch go = new CountDownLatch(1);
			List<Future<String>> calls = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				calls.add(pool.submit(() -> {
					go.await();
					return client.callTool("echo", Map.of()).text();
				}));
			}
			go.countDown();
			for (Future<String> call : calls) {
				assertThat(call.get(60, TimeUnit.SECONDS)).isEqualTo("ok");
			}
			pool.shutdown();
		}
		int refused = mcp.findAll(postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization", absent())
			.withRequestBody(matchingJsonPath("$.method", equalTo("tools/call")))).size();
		assertThat(refused).as("tool calls the server refused for want of a token").isGreaterThan(1);
		assertThat(tokenRequests()).as("token requests for %d refused callers", refused).isEqualTo(1);
		assertThat(credentials.tokenRequests()).isEqualTo(1);
		mcp.verify(16, postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization", equalTo("Bearer " + TOKEN))
			.withRequestBody(matchingJsonPath("$.method", equalTo("tools/call"))));
	}

	@Test
	void theTokenIsSentOnlyToTheMcpServerNeverToMetadataOrTheAuthorizationServer() {
		try (McpClient client = client(clientCredentials().build())) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		// 2025-11-25 basic/authorization §Token Requirements, §Access Token Privilege Restriction
		assertThat(auth.findAll(getRequestedFor(urlMatching(".*")).withHeader("Authorization", containing(TOKEN))))
			.isEmpty();
		assertThat(auth.findAll(postRequestedFor(urlMatching(".*")).withHeader("Authorization", containing("Bearer"))))
			.isEmpty();
		assertThat(mcp.findAll(getRequestedFor(urlPathEqualTo("/.well-known/oauth-protected-resource/mcp"))
			.withHeader("Authorization", matching(".+")))).isEmpty();
		// the token request authenticates the client (client_secret_basic) and names the resource
		auth.verify(1, postRequestedFor(urlEqualTo("/token")).withHeader("Authorization", matching("Basic .+"))
			.withRequestBody(containing("grant_type=client_credentials"))
			.withRequestBody(containing("resource=" + java.net.URLEncoder.encode(mcp.mcpUrl(),
					java.nio.charset.StandardCharsets.UTF_8))));
		// and never carries the token in a URL (2025-11-25 basic/authorization §Token Requirements, 2)
		assertThat(mcp.findAll(postRequestedFor(urlMatching(".*access_token.*")))).isEmpty();
	}

	private static com.github.tomakehurst.wiremock.matching.UrlPattern urlMatching(String regex) {
		return com.github.tomakehurst.wiremock.client.WireMock.urlMatching(regex);
	}

	@Test
	void aResourceMetadataUrlOnALinkLocalAddressIsNeverFetched() {
		mcp.stubFor(method("tools/call").atPriority(4)
			.withHeader("Authorization", absent())
			.willReturn(aResponse().withStatus(401)
				.withHeader("WWW-Authenticate", "Bearer resource_metadata=\"http://169.254.169.254/latest/meta-data\"")));
		try (McpClient client = client(clientCredentials().build())) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.havingCause()
				.isInstanceOf(McpAuthorizationException.class)
				.withMessageContaining("169.254.169.254")
				.withMessageContaining("link-local");
		}
		assertThat(tokenRequests()).isZero();
	}

	@Test
	void anAuthorizationServerOnPlainHttpOffLoopbackIsRefusedBeforeAnyRequestToIt() {
		mcp.stubFor(get(urlEqualTo("/.well-known/oauth-protected-resource/mcp")).atPriority(1)
			.willReturn(okJson("{\"resource\":\"" + mcp.baseUrl()
					+ "/mcp\",\"authorization_servers\":[\"http://auth.example.com\"]}")));
		try (McpClient client = client(clientCredentials().build())) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.havingCause()
				.withMessageContaining("http://auth.example.com")
				.withMessageContaining("must use https");
		}
	}

	@Test
	void metadataForAnotherResourceIsRefused() {
		mcp.stubFor(get(urlEqualTo("/.well-known/oauth-protected-resource/mcp")).atPriority(1)
			.willReturn(okJson("{\"resource\":\"https://other.example.com/mcp\",\"authorization_servers\":[\""
					+ auth.baseUrl() + "\"]}")));
		try (McpClient client = client(clientCredentials().build())) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.havingCause()
				.withMessageContaining("RFC 9728");
		}
		assertThat(tokenRequests()).isZero();
	}

	@Test
	void anAuthorizationServerWithoutPkceS256IsRefusedForTheAuthorizationCodeFlow() {
		auth.stubFor(get(urlEqualTo("/.well-known/oauth-authorization-server")).atPriority(1)
			.willReturn(okJson(metadata(auth.baseUrl(), false))));
		McpOAuthCredentials credentials = McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.client("public-client", null)
			.authorizationHandler((request) -> {
				throw new AssertionError("the user must not be sent to " + request.authorizationUri());
			})
			.build();
		try (McpClient client = client(credentials)) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.havingCause()
				.withMessageContaining("PKCE S256");
		}
		assertThat(tokenRequests()).isZero();
	}

	@Test
	void withoutAHandlerTheAuthorizationCodeFlowFailsNamingTheUrlToOpen() {
		McpOAuthCredentials credentials = McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.client("public-client", null)
			.build();
		try (McpClient client = client(credentials)) {
			McpAuthenticationException failure = org.junit.jupiter.api.Assertions
				.assertThrows(McpAuthenticationException.class, () -> client.callTool("echo", Map.of()));
			assertThat(failure.getCause()).isInstanceOf(McpAuthorizationRequiredException.class);
			URI open = ((McpAuthorizationRequiredException) failure.getCause()).authorizationUri();
			assertThat(open.toString()).startsWith(auth.baseUrl() + "/authorize?")
				.contains("code_challenge_method=S256")
				.contains("code_challenge=")
				.contains("state=")
				.contains("resource=" + java.net.URLEncoder.encode(mcp.mcpUrl(),
						java.nio.charset.StandardCharsets.UTF_8))
				.contains("client_id=public-client");
			assertThat(failure.getCause().getMessage()).contains(open.toString());
		}
		assertThat(tokenRequests()).isZero();
	}

	@Test
	void stepUpIsBoundedAndNotRepeatedForScopesAlreadyGranted() {
		mcp.stubFor(method("tools/call").atPriority(1)
			.withHeader("Authorization", matching("Bearer .+"))
			.willReturn(aResponse().withStatus(403)
				.withHeader("WWW-Authenticate", "Bearer error=\"insufficient_scope\", scope=\"admin\"")));
		McpOAuthCredentials credentials = clientCredentials().build();
		try (McpClient client = client(credentials)) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.satisfies((failure) -> assertThat(failure.status()).isEqualTo(403));
			assertThat(tokenRequests()).as("the first token, then one step-up").isEqualTo(2);
			auth.verify(1, postRequestedFor(urlEqualTo("/token")).withRequestBody(containing("scope=mcp+admin")));
			// the next call is refused for a scope it already asked for: no third authorization
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()));
		}
		assertThat(tokenRequests()).isEqualTo(2);
		mcp.verify(4, postRequestedFor(urlEqualTo("/mcp"))
			.withRequestBody(matchingJsonPath("$.method", equalTo("tools/call"))));
	}

	@Test
	void aFailedTokenRequestSurfacesTypedAndTheNextCallStartsTheFlowAgain() {
		auth.stubFor(post(urlEqualTo("/token")).atPriority(1)
			.willReturn(aResponse().withStatus(400)
				.withHeader("Content-Type", "application/json")
				.withBody("{\"error\":\"invalid_client\",\"error_description\":\"unknown client\"}")));
		try (McpClient client = client(clientCredentials().build())) {
			assertThatExceptionOfType(McpAuthenticationException.class)
				.isThrownBy(() -> client.callTool("echo", Map.of()))
				.havingCause()
				.isInstanceOf(McpAuthorizationException.class)
				.withMessageContaining("invalid_client (unknown client)");
			auth.resetMappings();
			auth.stubFor(get(urlEqualTo("/.well-known/oauth-authorization-server"))
				.willReturn(okJson(metadata(auth.baseUrl(), true))));
			auth.stubFor(post(urlEqualTo("/token")).willReturn(token(TOKEN)));
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		assertThat(tokenRequests()).isEqualTo(2);
	}

	@Test
	void aReplayWhoseConnectionDiedWhileAuthorizingIsSentAgainWhenItIsSafe() {
		String bearer = "Bearer " + TOKEN;
		mcp.stubFor(method("tools/list").atPriority(5).willReturn(unauthorized()));
		mcp.stubFor(method("tools/list").atPriority(1)
			.withHeader("Authorization", equalTo(bearer))
			.inScenario("stale connection")
			.whenScenarioStateIs(com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED)
			.willReturn(aResponse().withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER))
			.willSetStateTo("fresh connection"));
		mcp.stubFor(method("tools/list").atPriority(1)
			.withHeader("Authorization", equalTo(bearer))
			.inScenario("stale connection")
			.whenScenarioStateIs("fresh connection")
			.willReturn(okJson(result("{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}"))));
		try (McpClient client = client(clientCredentials().build())) {
			assertThat(client.listTools()).extracting("name").containsExactly("echo");
		}
		mcp.verify(2, postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization", equalTo(bearer))
			.withRequestBody(matchingJsonPath("$.method", equalTo("tools/list"))));
		assertThat(tokenRequests()).isEqualTo(1);
	}

	@Test
	void aHandshakeWhoseConnectionDiedWhileAuthorizingIsSentOnceMore() {
		String bearer = "Bearer " + TOKEN;
		mcp.stubFor(method("initialize").atPriority(1)
			.withHeader("Authorization", absent())
			.willReturn(unauthorized()));
		mcp.stubFor(method("initialize").atPriority(2)
			.withHeader("Authorization", equalTo(bearer))
			.inScenario("stale handshake")
			.whenScenarioStateIs(com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED)
			.willReturn(aResponse().withFault(com.github.tomakehurst.wiremock.http.Fault.CONNECTION_RESET_BY_PEER))
			.willSetStateTo("fresh connection"));
		mcp.stubFor(method("tools/list").willReturn(
				okJson(result("{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}"))));
		try (McpClient client = client(clientCredentials().build())) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		mcp.verify(2, postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization", equalTo(bearer))
			.withRequestBody(matchingJsonPath("$.method", equalTo("initialize"))));
		mcp.verify(1, postRequestedFor(urlEqualTo("/mcp"))
			.withRequestBody(matchingJsonPath("$.method", equalTo("tools/call"))));
		assertThat(tokenRequests()).isEqualTo(1);
	}

	@Test
	void aRejectedTokenIsRenewedWithItsRefreshTokenAndTheCallSentOnceMore() {
		auth.stubFor(post(urlEqualTo("/token")).atPriority(1)
			.withRequestBody(containing("grant_type=client_credentials"))
			.willReturn(okJson("{\"access_token\":\"tok-0-rejected\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
					+ "\"refresh_token\":\"refresh-1\"}")));
		auth.stubFor(post(urlEqualTo("/token")).atPriority(1)
			.withRequestBody(containing("grant_type=refresh_token"))
			.withRequestBody(containing("refresh_token=refresh-1"))
			.willReturn(token(TOKEN)));
		com.github.tomakehurst.wiremock.stubbing.StubMapping accepted = mcp.stubFor(method("tools/call").atPriority(1)
			.withHeader("Authorization", equalTo("Bearer tok-0-rejected"))
			.willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"))));
		try (McpClient client = client(clientCredentials().build())) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
			// mid-session, the server stops accepting the first token
			mcp.removeStub(accepted);
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		// the first token was refused (401), then renewed by the refresh token, not a new grant
		auth.verify(1, postRequestedFor(urlEqualTo("/token")).withRequestBody(containing("grant_type=client_credentials")));
		auth.verify(1, postRequestedFor(urlEqualTo("/token")).withRequestBody(containing("grant_type=refresh_token"))
			.withRequestBody(containing("resource=")));
		mcp.verify(2, postRequestedFor(urlEqualTo("/mcp")).withHeader("Authorization", equalTo("Bearer tok-0-rejected"))
			.withRequestBody(matchingJsonPath("$.method", equalTo("tools/call"))));
	}

}
