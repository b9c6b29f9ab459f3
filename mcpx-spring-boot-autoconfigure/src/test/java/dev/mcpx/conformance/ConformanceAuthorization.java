package dev.mcpx.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

import dev.mcpx.client.oauth.McpAssertionSource;
import dev.mcpx.client.oauth.McpAuthorizationException;
import dev.mcpx.client.oauth.McpAuthorizationHandler;
import dev.mcpx.client.oauth.McpIdentityProvider;
import dev.mcpx.client.oauth.McpOAuthCredentials;
import dev.mcpx.client.oauth.McpOAuthGrant;
import tools.jackson.databind.JsonNode;

/**
 * The OAuth side of {@link ConformanceClient}: {@link McpOAuthCredentials} configured for an
 * {@code auth/*} scenario from what the suite hands the client in
 * {@code MCP_CONFORMANCE_CONTEXT} (pre-registered client id and secret, a private key), and
 * an {@link McpAuthorizationHandler} that plays the user's browser: the suite's
 * authorization endpoint approves at once and redirects, so the handler requests the
 * authorization URL without following the redirect and returns its {@code Location}.
 */
final class ConformanceAuthorization {

	/**
	 * The client ID metadata document URL the suite expects of a client that uses one
	 * ({@code auth/basic-cimd}).
	 */
	static final URI CLIENT_METADATA_URL = URI.create("https://conformance-test.local/client-metadata.json");

	/** A loopback redirect URI, as a native client has. */
	static final URI REDIRECT_URI = URI.create("http://localhost:3000/callback");

	private ConformanceAuthorization() {
	}

	/**
	 * The credentials of a scenario.
	 * @param scenario the scenario name, {@code auth/...}
	 * @param url the MCP endpoint
	 * @param context the scenario's context
	 * @return the credentials
	 */
	static McpOAuthCredentials credentials(String scenario, URI url, JsonNode context) {
		McpOAuthCredentials.Builder builder = McpOAuthCredentials.builder("conformance", url)
			.clientName("mcpx conformance client")
			.redirectUri(REDIRECT_URI)
			.clientMetadataUrl(CLIENT_METADATA_URL)
			.authorizationHandler(new FollowingRedirect())
			.timeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
		switch (scenario) {
			case "auth/client-credentials-basic" -> builder.grant(McpOAuthGrant.CLIENT_CREDENTIALS)
				.client(text(context, "client_id"), text(context, "client_secret"))
				.clientAuthentication("client_secret_basic");
			case "auth/client-credentials-jwt" -> builder.grant(McpOAuthGrant.CLIENT_CREDENTIALS)
				.client(text(context, "client_id"), null)
				.signingKey(ecKey(text(context, "private_key_pem")))
				.clientAuthentication("private_key_jwt");
			case "auth/pre-registration" -> builder.client(text(context, "client_id"), text(context, "client_secret"))
				.issuer(text(context, "issuer"));
			case "auth/enterprise-managed-authorization" -> {
				// the user's ID token from single sign-on, exchanged at the IdP for an ID-JAG
				String idToken = text(context, "idp_id_token");
				builder.grant(McpOAuthGrant.ENTERPRISE_MANAGED)
					.client(text(context, "client_id"), text(context, "client_secret"))
					.assertion(() -> idToken)
					.identityProvider(McpIdentityProvider.of(URI.create(text(context, "idp_token_endpoint")),
							text(context, "idp_client_id"), null));
			}
			case "auth/wif-jwt-bearer" -> builder.grant(McpOAuthGrant.JWT_BEARER)
				.client(text(context, "client_id"), null)
				// as a platform projects it: a file, read at every grant
				.assertion(McpAssertionSource.file(workloadTokenFile(text(context, "valid_jwt"))));
			default -> {
				// every other scenario: discovery, then CIMD or dynamic registration
			}
		}
		return builder.build();
	}

	private static Path workloadTokenFile(String token) {
		try {
			Path file = Files.createTempFile("mcpx-conformance-workload-token", ".jwt");
			file.toFile().deleteOnExit();
			return Files.writeString(file, token + "\n");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String text(JsonNode context, String field) {
		JsonNode value = context.get(field);
		if (value == null || !value.isString()) {
			throw new IllegalArgumentException("MCP_CONFORMANCE_CONTEXT has no " + field + ": " + context.properties()
				.stream()
				.map(java.util.Map.Entry::getKey)
				.toList());
		}
		return value.asString();
	}

	/**
	 * An ES256 key from the suite's PKCS #8 PEM. The PEM holds the private key alone, and a
	 * JWK needs the public point too: Bouncy Castle computes it (d·G).
	 */
	static JWK ecKey(String pem) {
		try {
			String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
			byte[] der = Base64.getDecoder().decode(base64);
			ECPrivateKey privateKey = (ECPrivateKey) KeyFactory.getInstance("EC")
				.generatePrivate(new PKCS8EncodedKeySpec(der));
			org.bouncycastle.jce.interfaces.ECPrivateKey bc = (org.bouncycastle.jce.interfaces.ECPrivateKey) KeyFactory
				.getInstance("EC", new BouncyCastleProvider())
				.generatePrivate(new PKCS8EncodedKeySpec(der));
			org.bouncycastle.math.ec.ECPoint q = bc.getParameters().getG().multiply(bc.getD()).normalize();
			ECPublicKey publicKey = (ECPublicKey) KeyFactory.getInstance("EC")
				.generatePublic(new ECPublicKeySpec(
						new ECPoint(q.getAffineXCoord().toBigInteger(), q.getAffineYCoord().toBigInteger()),
						privateKey.getParams()));
			return new ECKey.Builder(Curve.P_256, publicKey).privateKey(privateKey).keyIDFromThumbprint().build();
		}
		catch (Exception ex) {
			throw new IllegalArgumentException("cannot read the scenario's private key: " + ex.getMessage(), ex);
		}
	}

	/**
	 * The user's browser, for an authorization server that approves without asking: one GET
	 * of the authorization URL, its redirect returned unfollowed.
	 */
	static final class FollowingRedirect implements McpAuthorizationHandler {

		private final HttpClient http = HttpClient.newBuilder()
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(Duration.ofSeconds(5))
			.build();

		@Override
		public URI authorize(dev.mcpx.client.oauth.McpAuthorizationRequest request) {
			System.out.println("authorizing at " + request.authorizationUri());
			try {
				HttpResponse<Void> response = this.http.send(HttpRequest.newBuilder(request.authorizationUri())
					.timeout(Duration.ofSeconds(10))
					.GET()
					.build(), HttpResponse.BodyHandlers.discarding());
				String location = response.headers().firstValue("Location").orElse(null);
				if (response.statusCode() / 100 != 3 || location == null) {
					throw new McpAuthorizationException(request.upstream(),
							"the authorization endpoint answered HTTP " + response.statusCode() + " without a redirect",
							null);
				}
				System.out.println("redirected to " + location.replaceAll("code=[^&]*", "code=(redacted)"));
				return request.authorizationUri().resolve(location);
			}
			catch (IOException ex) {
				throw new McpAuthorizationException(request.upstream(), "the authorization endpoint failed: " + ex, ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new McpAuthorizationException(request.upstream(), "interrupted while authorizing", ex);
			}
		}

	}

}
