package dev.mcpx.client.oauth;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.error.McpAuthenticationException;
import dev.mcpx.testsupport.McpWireMock;
import dev.mcpx.testsupport.OAuthWireStubs;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.mcpx.testsupport.McpWireMock.method;
import static dev.mcpx.testsupport.McpWireMock.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The grants that present an assertion, against scripted servers (an MCP server, its
 * authorization server and, for enterprise-managed authorization, the enterprise identity
 * provider, each on its own origin): workload identity federation (an RFC 7523 JWT bearer
 * grant with the workload's token, read from a file at every grant) and enterprise-managed
 * authorization (RFC 8693 token exchange at the identity provider for an ID-JAG, then a JWT
 * bearer grant). What each server received is asserted, and every bad input (a token file
 * missing, empty, not a JWT or expired; an identity provider that is down, refuses, or answers
 * without {@code issued_token_type}; a refused grant) fails the call with an
 * {@link McpAuthorizationException} that names the step, sends nothing further and holds no
 * token or assertion.
 */
class AssertionGrantsWireTest {

	@RegisterExtension
	static McpWireMock mcp = McpWireMock.upstream();

	@RegisterExtension
	static McpWireMock auth = McpWireMock.plain();

	@RegisterExtension
	static McpWireMock idp = McpWireMock.plain();

	static final String JWT_BEARER = OAuthWireStubs.JWT_BEARER;

	static final String TOKEN_EXCHANGE = OAuthWireStubs.TOKEN_EXCHANGE;

	static final String ID_JAG = OAuthWireStubs.ID_JAG;

	private static final String ACCESS_TOKEN = "access-token-for-the-mcp-server";

	@TempDir
	Path dir;

	@BeforeEach
	void servers() {
		mcp.resetAll();
		auth.resetAll();
		idp.resetAll();
		String as = auth.baseUrl();
		OAuthWireStubs.protectedResource(mcp, "/mcp", as);
		auth.stubFor(get(urlEqualTo("/.well-known/oauth-authorization-server"))
			.willReturn(okJson("{\"issuer\":\"" + as + "\",\"token_endpoint\":\"" + as + "/token\","
					+ "\"grant_types_supported\":[\"" + JWT_BEARER + "\"],"
					+ "\"token_endpoint_auth_methods_supported\":[\"client_secret_basic\",\"none\"]}")));
		OAuthWireStubs.tokenEndpoint(auth, "/token", 200, OAuthWireStubs.bearer(ACCESS_TOKEN, 3600));
		mcp.stubFor(method("initialize").willReturn(okJson(result("{\"protocolVersion\":\"2025-11-25\","
				+ "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"guarded\",\"version\":\"1\"}}"))));
		mcp.stubFor(method("notifications/initialized").willReturn(aResponse().withStatus(202)));
		mcp.stubFor(method("tools/call").atPriority(5)
			.willReturn(aResponse().withStatus(401)
				.withHeader("WWW-Authenticate", "Bearer resource_metadata=\"" + mcp.baseUrl()
						+ "/.well-known/oauth-protected-resource/mcp\"")));
		mcp.stubFor(method("tools/call").atPriority(1)
			.withHeader("Authorization", equalTo("Bearer " + ACCESS_TOKEN))
			.willReturn(okJson(result("{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}"))));
		mcp.stubFor(get(urlEqualTo("/mcp")).willReturn(aResponse().withStatus(405)));
	}

	// --- workload identity federation: jwt-bearer ----------------------------------------

	@Test
	void theWorkloadTokenIsPresentedAsAJwtBearerGrantAndReadFromItsFileAgainAtEveryGrant() throws Exception {
		Path file = this.dir.resolve("token");
		String first = jwt("workload", auth.baseUrl(), Instant.now().plusSeconds(3600));
		Files.writeString(file, first + "\n");
		// the first access token lives three seconds (long enough for the first call to use it
		// on a loaded machine), the next an hour
		auth.stubFor(post(urlEqualTo("/token")).inScenario("tokens")
			.whenScenarioStateIs(Scenario.STARTED)
			.willSetStateTo("renewed")
			.willReturn(okJson("{\"access_token\":\"" + ACCESS_TOKEN + "\",\"token_type\":\"Bearer\","
					+ "\"expires_in\":3}")));
		McpOAuthCredentials credentials = McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.grant(McpOAuthGrant.JWT_BEARER)
			.client("workload-client", null)
			.assertion(McpAssertionSource.file(file))
			.build();
		try (McpClient client = client(credentials)) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
			// the platform rotates the token; the next grant, made when the access token is
			// about to expire, presents the new one
			String second = jwt("workload", auth.baseUrl(), Instant.now().plusSeconds(7200));
			Files.writeString(file, second);
			Thread.sleep(3100);
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
			List<Map<String, String>> grants = forms(auth, "/token");
			assertThat(grants).hasSize(2);
			// RFC 7523 §2.1: grant_type and assertion; RFC 8707: the resource
			assertThat(grants.get(0)).containsEntry("grant_type", JWT_BEARER)
				.containsEntry("assertion", first)
				.containsEntry("resource", mcp.baseUrl() + "/mcp")
				.containsEntry("client_id", "workload-client");
			assertThat(grants.get(1)).containsEntry("grant_type", JWT_BEARER).containsEntry("assertion", second);
		}
	}

	@Test
	void aWorkloadWithoutAClientIdSendsTheAssertionAlone() throws Exception {
		Path file = this.dir.resolve("token");
		Files.writeString(file, jwt("workload", auth.baseUrl(), Instant.now().plusSeconds(3600)));
		McpOAuthCredentials credentials = McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.grant(McpOAuthGrant.JWT_BEARER)
			.assertion(McpAssertionSource.file(file))
			.build();
		try (McpClient client = client(credentials)) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		// RFC 7523 §3: client authentication is optional; the assertion identifies the workload
		assertThat(forms(auth, "/token")).singleElement()
			.satisfies((form) -> assertThat(form).containsEntry("grant_type", JWT_BEARER).doesNotContainKey("client_id"));
		assertThat(auth.findAll(postRequestedFor(urlEqualTo("/token"))).get(0).containsHeader("Authorization"))
			.isFalse();
	}

	@Test
	void aMissingEmptyOrMalformedWorkloadTokenFileFailsTheCallNamingTheFileAndNothingIsSent() throws Exception {
		Path missing = this.dir.resolve("missing");
		Path empty = Files.writeString(this.dir.resolve("empty"), "  \n");
		Path notAJwt = Files.writeString(this.dir.resolve("garbage"), "opaque-secret-value-XYZ");
		Path expired = Files.writeString(this.dir.resolve("expired"),
				jwt("workload", auth.baseUrl(), Instant.now().minusSeconds(60)));
		assertRefusedBeforeSending(missing, "'" + missing + "' does not exist");
		assertRefusedBeforeSending(empty, "'" + empty + "' is empty");
		assertRefusedBeforeSending(notAJwt, "is not a JWT");
		assertRefusedBeforeSending(expired, "expired at");
		assertThat(auth.findAll(postRequestedFor(urlEqualTo("/token")))).as("token requests").isEmpty();
	}

	private void assertRefusedBeforeSending(Path file, String expected) throws IOException {
		McpOAuthCredentials credentials = McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.grant(McpOAuthGrant.JWT_BEARER)
			.client("workload-client", null)
			.assertion(McpAssertionSource.file(file))
			.build();
		try (McpClient client = client(credentials)) {
			McpAuthorizationException failure = authorizationFailure(client);
			assertThat(failure.getMessage()).contains("the workload token of the jwt-bearer grant")
				.contains(file.toString())
				.contains(expected);
			if (Files.exists(file) && !Files.readString(file).isBlank()) {
				assertThat(failure.getMessage()).doesNotContain(Files.readString(file).strip());
			}
		}
	}

	@Test
	void aRefusedJwtBearerGrantFailsTheCallOnceWithoutRetryingOrSwitchingGrants() throws Exception {
		String assertion = jwt("workload", auth.baseUrl(), Instant.now().plusSeconds(3600));
		Path file = Files.writeString(this.dir.resolve("token"), assertion);
		// a server that echoes what it was sent must not make the client repeat it
		OAuthWireStubs.tokenEndpoint(auth, "/token", 400,
				"{\"error\":\"invalid_grant\",\"error_description\":\"assertion " + assertion + " is not trusted\"}");
		McpOAuthCredentials credentials = McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.grant(McpOAuthGrant.JWT_BEARER)
			.client("workload-client", null)
			.assertion(McpAssertionSource.file(file))
			.build();
		try (McpClient client = client(credentials)) {
			McpAuthorizationException failure = authorizationFailure(client);
			assertThat(failure.getMessage()).contains("jwt-bearer token request")
				.contains("was refused: invalid_grant")
				.doesNotContain(assertion);
			assertThat(forms(auth, "/token")).singleElement()
				.satisfies((form) -> assertThat(form).containsEntry("grant_type", JWT_BEARER));
			// the next call starts the flow again: one grant per call, never a loop
			authorizationFailure(client);
			assertThat(forms(auth, "/token")).hasSize(2)
				.allSatisfy((form) -> assertThat(form).containsEntry("grant_type", JWT_BEARER));
		}
	}

	// --- enterprise-managed authorization: token exchange, then jwt-bearer ---------------

	@Test
	void theIdentityAssertionIsExchangedForAnIdJagWhichTheAuthorizationServerRedeems() throws Exception {
		String idToken = jwt("alice", "mcpx-sso-client", Instant.now().plusSeconds(3600));
		String idJag = idJag("alice", auth.baseUrl());
		OAuthWireStubs.tokenEndpoint(idp, "/token", 200, OAuthWireStubs.idJagIssued(idJag));
		try (McpClient client = client(enterprise(() -> idToken).build())) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		// enterprise-managed authorization §4: the exchange at the identity provider
		assertThat(forms(idp, "/token")).singleElement()
			.satisfies((form) -> assertThat(form).containsEntry("grant_type", TOKEN_EXCHANGE)
				.containsEntry("requested_token_type", ID_JAG)
				.containsEntry("subject_token", idToken)
				.containsEntry("subject_token_type", McpIdentityProvider.ID_TOKEN)
				.containsEntry("audience", auth.baseUrl())
				.containsEntry("resource", mcp.baseUrl() + "/mcp")
				.containsEntry("client_id", "mcpx-sso-client"));
		// §5: the ID-JAG as a JWT bearer grant, the client authenticated as registered there
		assertThat(forms(auth, "/token")).singleElement()
			.satisfies((form) -> assertThat(form).containsEntry("grant_type", JWT_BEARER)
				.containsEntry("assertion", idJag)
				.doesNotContainKey("subject_token"));
		assertThat(auth.findAll(postRequestedFor(urlEqualTo("/token"))).get(0).getHeader("Authorization"))
			.startsWith("Basic ");
	}

	@Test
	void aSamlAssertionIsExchangedAsItIsWithItsTypeAndTheIdentityProvidersSecret() throws Exception {
		// RFC 8693 §3: a SAML 2.0 assertion, base64url-encoded; not a JWT, so not parsed as one
		String saml = java.util.Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString("<saml2:Assertion ID=\"a1\">alice</saml2:Assertion>".getBytes(StandardCharsets.UTF_8));
		String idJag = idJag("alice", auth.baseUrl());
		OAuthWireStubs.tokenEndpoint(idp, "/token", 200, OAuthWireStubs.idJagIssued(idJag));
		McpOAuthCredentials credentials = enterprise(() -> saml)
			.identityProvider(new McpIdentityProvider(URI.create(idp.baseUrl() + "/token"), "mcpx-sso-client",
					"sso-secret", "client_secret_post", McpIdentityProvider.SAML2))
			.build();
		try (McpClient client = client(credentials)) {
			assertThat(client.callTool("echo", Map.of()).text()).isEqualTo("ok");
		}
		assertThat(forms(idp, "/token")).singleElement()
			.satisfies((form) -> assertThat(form).containsEntry("subject_token", saml)
				.containsEntry("subject_token_type", McpIdentityProvider.SAML2)
				.containsEntry("client_id", "mcpx-sso-client")
				.containsEntry("client_secret", "sso-secret"));
		assertThat(forms(auth, "/token")).singleElement()
			.satisfies((form) -> assertThat(form).containsEntry("assertion", idJag));
	}

	@Test
	void aTokenExchangeResponseWithoutIssuedTokenTypeIsNotRedeemed() throws Exception {
		String idJag = idJag("alice", auth.baseUrl());
		OAuthWireStubs.tokenEndpoint(idp, "/token", 200, OAuthWireStubs.idJagWithoutIssuedTokenType(idJag));
		String idToken = jwt("alice", "mcpx-sso-client", Instant.now().plusSeconds(3600));
		try (McpClient client = client(enterprise(() -> idToken).build())) {
			McpAuthorizationException failure = authorizationFailure(client);
			assertThat(failure.getMessage()).contains("token exchange response of the identity provider")
				.contains("has no issued_token_type")
				.doesNotContain(idJag)
				.doesNotContain(idToken);
		}
		assertThat(forms(idp, "/token")).hasSize(1);
		assertThat(auth.findAll(postRequestedFor(urlEqualTo("/token")))).as("grants at the authorization server")
			.isEmpty();
	}

	@Test
	void anIdentityProviderThatRefusesTheExchangeFailsTheCallNamingTheStep() throws Exception {
		String idToken = jwt("alice", "mcpx-sso-client", Instant.now().plusSeconds(3600));
		OAuthWireStubs.tokenEndpoint(idp, "/token", 400, "{\"error\":\"invalid_grant\","
				+ "\"error_description\":\"Audience validation failed for " + idToken + "\"}");
		try (McpClient client = client(enterprise(() -> idToken).build())) {
			McpAuthorizationException failure = authorizationFailure(client);
			assertThat(failure.getMessage()).contains("token exchange token request to " + idp.baseUrl() + "/token")
				.contains("was refused: invalid_grant")
				.doesNotContain(idToken);
		}
		assertThat(forms(idp, "/token")).hasSize(1);
		assertThat(auth.findAll(postRequestedFor(urlEqualTo("/token")))).isEmpty();
	}

	@Test
	void anIdentityProviderThatIsDownFailsTheCallNamingTheTokenExchange() throws Exception {
		int closed;
		try (ServerSocket socket = new ServerSocket(0)) {
			closed = socket.getLocalPort();
		}
		String idToken = jwt("alice", "mcpx-sso-client", Instant.now().plusSeconds(3600));
		McpOAuthCredentials credentials = enterprise(() -> idToken)
			.identityProvider(McpIdentityProvider.of(URI.create("http://127.0.0.1:" + closed + "/token"),
					"mcpx-sso-client", null))
			.build();
		try (McpClient client = client(credentials)) {
			McpAuthorizationException failure = authorizationFailure(client);
			assertThat(failure.getMessage())
				.contains("the token exchange token request to http://127.0.0.1:" + closed + "/token failed")
				.contains("ConnectException");
		}
		assertThat(auth.findAll(postRequestedFor(urlEqualTo("/token")))).isEmpty();
	}

	@Test
	void anIdentityAssertionSourceThatFailsIsReportedWithoutItsCause() {
		try (McpClient client = client(enterprise(() -> {
			throw new IllegalStateException("no user is signed in");
		}).build())) {
			McpAuthorizationException failure = authorizationFailure(client);
			assertThat(failure.getMessage())
				.contains("the identity assertion of the enterprise-managed grant could not be read")
				.contains("no user is signed in");
			assertThat(failure.getCause()).isNull();
		}
		assertThat(idp.findAll(postRequestedFor(urlEqualTo("/token")))).isEmpty();
	}

	@Test
	void theBuilderRefusesAnAssertionGrantWithoutWhatItNeeds() {
		assertThat(catchThrowableOfType(IllegalArgumentException.class,
				() -> McpOAuthCredentials.builder("guarded", mcp.mcpUri()).grant(McpOAuthGrant.JWT_BEARER).build()))
			.hasMessageContaining("needs an assertion source");
		assertThat(catchThrowableOfType(IllegalArgumentException.class,
				() -> McpOAuthCredentials.builder("guarded", mcp.mcpUri())
					.grant(McpOAuthGrant.ENTERPRISE_MANAGED)
					.client("app", "secret")
					.assertion(() -> "x")
					.build()))
			.hasMessageContaining("needs an identity provider");
		assertThat(catchThrowableOfType(IllegalArgumentException.class,
				() -> McpOAuthCredentials.builder("guarded", mcp.mcpUri())
					.grant(McpOAuthGrant.ENTERPRISE_MANAGED)
					.assertion(() -> "x")
					.identityProvider(McpIdentityProvider.of(URI.create("https://idp.example.com/token"), "sso", null))
					.build()))
			.hasMessageContaining("needs the client id");
		assertThat(catchThrowableOfType(IllegalArgumentException.class,
				() -> McpIdentityProvider.of(URI.create("http://idp.example.com/token"), "sso", null)))
			.hasMessageContaining("must be an https URL");
		assertThat(McpIdentityProvider.of(URI.create("https://idp.example.com/token"), "sso", "idp-secret"))
			.hasToString("McpIdentityProvider[tokenEndpoint=https://idp.example.com/token, clientId=sso, "
					+ "clientSecret=(set), subjectTokenType=" + McpIdentityProvider.ID_TOKEN + "]");
	}

	// --- fixtures ------------------------------------------------------------------------

	private static McpOAuthCredentials.Builder enterprise(McpAssertionSource idToken) {
		return McpOAuthCredentials.builder("guarded", mcp.mcpUri())
			.grant(McpOAuthGrant.ENTERPRISE_MANAGED)
			.client("mcp-client", "mcp-client-secret")
			.assertion(idToken)
			.identityProvider(McpIdentityProvider.of(URI.create(idp.baseUrl() + "/token"), "mcpx-sso-client", null));
	}

	private static McpClient client(McpOAuthCredentials credentials) {
		return McpClient.builder("guarded", mcp.mcpUri())
			.protocol(ProtocolMode.LEGACY)
			.listenForChanges(false)
			.requestTimeout(Duration.ofSeconds(20))
			.credentials(credentials)
			.build();
	}

	/** The failed flow behind the call's refusal: what the caller reads as the cause. */
	private static McpAuthorizationException authorizationFailure(McpClient client) {
		McpAuthenticationException refusal = catchThrowableOfType(McpAuthenticationException.class,
				() -> client.callTool("echo", Map.of()));
		assertThat(refusal).as("the call's failure").isNotNull();
		Throwable cause = refusal;
		while (cause != null && !(cause instanceof McpAuthorizationException)) {
			cause = cause.getCause();
		}
		assertThat(cause).as("an McpAuthorizationException behind %s", refusal).isNotNull();
		return (McpAuthorizationException) cause;
	}

	/** The form bodies the server received at a path, in order. */
	private static List<Map<String, String>> forms(McpWireMock server, String path) {
		return server.findAll(postRequestedFor(urlEqualTo(path))).stream().map(AssertionGrantsWireTest::form).toList();
	}

	private static Map<String, String> form(LoggedRequest request) {
		Map<String, String> form = new LinkedHashMap<>();
		for (String pair : request.getBodyAsString().split("&")) {
			int eq = pair.indexOf('=');
			form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
					URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
		}
		return form;
	}

	private static final ECKey KEY = key();

	private static ECKey key() {
		try {
			return new ECKeyGenerator(Curve.P_256).keyID("test").generate();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	static String jwt(String subject, String audience, Instant expires) throws Exception {
		return sign(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("test").build(), subject, audience, expires,
				Map.of());
	}

	private static String idJag(String subject, String audience) throws Exception {
		return sign(new JWSHeader.Builder(JWSAlgorithm.ES256).type(new JOSEObjectType("oauth-id-jag+jwt")).build(),
				subject, audience, Instant.now().plusSeconds(300),
				Map.of("client_id", "mcp-client", "resource", mcp.baseUrl() + "/mcp"));
	}

	private static String sign(JWSHeader header, String subject, String audience, Instant expires,
			Map<String, Object> extra) throws Exception {
		JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer("https://idp.example.com")
			.subject(subject)
			.audience(audience)
			.issueTime(new Date())
			.expirationTime(Date.from(expires))
			.jwtID(java.util.UUID.randomUUID().toString());
		extra.forEach(claims::claim);
		SignedJWT jwt = new SignedJWT(header, claims.build());
		jwt.sign(new ECDSASigner(KEY));
		return jwt.serialize();
	}

}
