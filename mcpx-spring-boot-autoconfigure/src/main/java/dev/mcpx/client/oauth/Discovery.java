package dev.mcpx.client.oauth;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.util.JSONObjectUtils;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpAuthChallenge;

/**
 * Finds the authorization server of an MCP endpoint: its protected resource metadata
 * (RFC 9728) from the 401's {@code resource_metadata} or the well-known fallbacks, then the
 * authorization server's metadata (RFC 8414, OpenID Connect Discovery) in the spec's order,
 * and the 2025-03-26 paths for servers that publish neither. Every URL passes
 * {@link SafeUrls}; redirects are never followed.
 */
final class Discovery {

	private static final Log logger = LogFactory.getLog(Discovery.class);

	private static final String PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource";

	private static final String OAUTH_METADATA = "/.well-known/oauth-authorization-server";

	private static final String OPENID_METADATA = "/.well-known/openid-configuration";

	private final String upstream;

	private final URI endpoint;

	private final Duration connectTimeout;

	private final Duration readTimeout;

	/**
	 * Creates the discovery of one upstream.
	 * @param upstream the upstream name
	 * @param endpoint its MCP endpoint
	 * @param connectTimeout the bound of a connection
	 * @param readTimeout the bound of a response
	 */
	public Discovery(String upstream, URI endpoint, Duration connectTimeout, Duration readTimeout) {
		this.upstream = upstream;
		this.endpoint = endpoint;
		this.connectTimeout = connectTimeout;
		this.readTimeout = readTimeout;
	}

	/**
	 * Discovers the protected resource metadata, or finds there is none (a 2025-03-26
	 * server).
	 * @param challenge the refusal that started the flow
	 * @return the resource's metadata, {@link ProtectedResource#fromMetadata()} false when
	 * the server publishes none
	 */
	public ProtectedResource protectedResource(McpAuthChallenge challenge) {
		List<URI> candidates = new ArrayList<>();
		String named = challenge.resourceMetadata();
		if (named != null && !named.isBlank()) {
			// 2025-11-25 basic/authorization §Protected Resource Metadata Discovery Requirements:
			// use the URL of the challenge when present
			candidates.add(parse("resource_metadata of the WWW-Authenticate challenge", named));
		}
		else {
			// otherwise the well-known URIs, the endpoint's path first, then the root
			String origin = SafeUrls.origin(this.endpoint);
			String path = SafeUrls.trimSlash(this.endpoint.getRawPath());
			if (!path.isEmpty()) {
				candidates.add(URI.create(origin + PROTECTED_RESOURCE + path));
			}
			candidates.add(URI.create(origin + PROTECTED_RESOURCE));
		}
		for (URI candidate : candidates) {
			Map<String, Object> json = fetchJson("protected resource metadata", candidate);
			if (json != null) {
				return validate(candidate, json);
			}
		}
		if (named != null && !named.isBlank()) {
			throw new McpAuthorizationException(this.upstream,
					"the protected resource metadata named by the server's WWW-Authenticate challenge (" + named
							+ ") could not be read",
					null);
		}
		logger.debug("[" + this.upstream + "] no protected resource metadata at " + candidates
				+ "; treating the server as a 2025-03-26 server whose origin is its authorization server");
		return new ProtectedResource(null, canonical(this.endpoint), List.of(SafeUrls.origin(this.endpoint)),
				List.of(), false);
	}

	private ProtectedResource validate(URI location, Map<String, Object> json) {
		Object resource = json.get("resource");
		if (!(resource instanceof String value) || value.isBlank()) {
			throw new McpAuthorizationException(this.upstream,
					"the protected resource metadata at " + location + " has no resource (RFC 9728 §2)", null);
		}
		URI resourceUri;
		try {
			resourceUri = URI.create(value);
		}
		catch (IllegalArgumentException ex) {
			throw new McpAuthorizationException(this.upstream,
					"the protected resource metadata at " + location + " names an invalid resource '" + value + "'",
					ex);
		}
		if (!SafeUrls.covers(resourceUri, this.endpoint)) {
			// RFC 9728 §3.3: the resource must be the one the client asked about; a token
			// obtained for another resource would be sent to this one
			throw new McpAuthorizationException(this.upstream, "the protected resource metadata at " + location
					+ " is about resource '" + value + "', not " + this.endpoint
					+ "; refusing to authorize (RFC 9728 §3.3)", null);
		}
		List<String> servers = strings(json.get("authorization_servers"));
		if (servers.isEmpty()) {
			throw new McpAuthorizationException(this.upstream, "the protected resource metadata at " + location
					+ " names no authorization_servers (2025-11-25 basic/authorization §Authorization Server Location)",
					null);
		}
		return new ProtectedResource(location, value, servers, strings(json.get("scopes_supported")), true);
	}

	/**
	 * Discovers an authorization server's metadata, trying RFC 8414 and OpenID Connect
	 * Discovery in the order of 2025-11-25 basic/authorization §Authorization Server Metadata
	 * Discovery, and validates its issuer.
	 * @param issuer the issuer identifier, from the protected resource metadata
	 * @param legacyFallback whether the server publishes no protected resource metadata, so
	 * the 2025-03-26 default endpoints apply when the metadata is missing too
	 * @return the authorization server
	 */
	public AuthorizationServer authorizationServer(String issuer, boolean legacyFallback) {
		URI issuerUri = parse("authorization server issuer", issuer);
		String origin = SafeUrls.origin(issuerUri);
		String path = SafeUrls.trimSlash(issuerUri.getRawPath());
		List<URI> candidates = new ArrayList<>();
		if (!path.isEmpty()) {
			candidates.add(URI.create(origin + OAUTH_METADATA + path));
			candidates.add(URI.create(origin + OPENID_METADATA + path));
			candidates.add(URI.create(origin + path + OPENID_METADATA));
		}
		else {
			candidates.add(URI.create(origin + OAUTH_METADATA));
			candidates.add(URI.create(origin + OPENID_METADATA));
		}
		for (URI candidate : candidates) {
			Map<String, Object> json = fetchJson("authorization server metadata", candidate);
			if (json == null) {
				continue;
			}
			AuthorizationServerMetadata metadata;
			try {
				metadata = AuthorizationServerMetadata.parse(JSONObjectUtils.toJSONString(json));
			}
			catch (ParseException ex) {
				throw new McpAuthorizationException(this.upstream,
						"the authorization server metadata at " + candidate + " is invalid: " + ex.getMessage(), ex);
			}
			String declared = metadata.getIssuer().getValue();
			if (!declared.equals(issuer)) {
				// RFC 8414 §3.3: identical, or the metadata MUST NOT be used
				throw new McpAuthorizationException(this.upstream, "the authorization server metadata at " + candidate
						+ " declares issuer '" + declared + "', not '" + issuer
						+ "' whose well-known URL it was fetched from; it is not used (RFC 8414 §3.3)", null);
			}
			return AuthorizationServer.of(this.upstream, issuer, metadata);
		}
		if (!legacyFallback) {
			throw new McpAuthorizationException(this.upstream,
					"no authorization server metadata for issuer '" + issuer + "' at " + candidates, null);
		}
		// 2025-03-26 basic/authorization §Fallbacks for Servers without Metadata Discovery
		logger.debug("[" + this.upstream + "] no authorization server metadata at " + candidates
				+ "; using the 2025-03-26 default endpoints of " + origin);
		return AuthorizationServer.defaults(this.upstream, origin);
	}

	/**
	 * The canonical URI of an MCP endpoint (2025-11-25 basic/authorization §Canonical Server
	 * URI): lower-case scheme and host, no fragment, no trailing slash.
	 */
	static String canonical(URI endpoint) {
		String path = SafeUrls.trimSlash(endpoint.getRawPath());
		String query = (endpoint.getRawQuery() != null) ? "?" + endpoint.getRawQuery() : "";
		return SafeUrls.origin(endpoint) + path + query;
	}

	private URI parse(String what, String value) {
		URI uri;
		try {
			uri = URI.create(value);
		}
		catch (IllegalArgumentException ex) {
			throw new McpAuthorizationException(this.upstream, what + " '" + value + "' is not a URL", ex);
		}
		return SafeUrls.requireSafe(this.upstream, what, uri);
	}

	/** A JSON object from a 200 answer; {@code null} for a 4xx, so the next candidate is tried. */
	private @Nullable Map<String, Object> fetchJson(String what, URI url) {
		SafeUrls.requireSafe(this.upstream, what + " URL", url);
		HTTPRequest request = new HTTPRequest(HTTPRequest.Method.GET, url);
		request.setFollowRedirects(false);
		request.setConnectTimeout((int) this.connectTimeout.toMillis());
		request.setReadTimeout((int) this.readTimeout.toMillis());
		request.setAccept("application/json");
		HTTPResponse response;
		try {
			response = request.send();
		}
		catch (IOException ex) {
			throw new McpAuthorizationException(this.upstream, "could not fetch the " + what + " at " + url + ": " + ex,
					ex);
		}
		int status = response.getStatusCode();
		logger.debug("[" + this.upstream + "] " + what + " at " + url + ": HTTP " + status);
		if (status >= 400 && status < 500) {
			return null;
		}
		if (status != 200) {
			throw new McpAuthorizationException(this.upstream,
					"the " + what + " at " + url + " was answered HTTP " + status, null);
		}
		try {
			return JSONObjectUtils.parse(response.getBody());
		}
		catch (java.text.ParseException | RuntimeException ex) {
			throw new McpAuthorizationException(this.upstream, "the " + what + " at " + url + " is not a JSON object",
					ex);
		}
	}

	private static List<String> strings(@Nullable Object value) {
		List<String> result = new ArrayList<>();
		if (value instanceof List<?> list) {
			for (Object item : list) {
				if (item instanceof String text && !text.isBlank()) {
					result.add(text);
				}
			}
		}
		return List.copyOf(result);
	}

	/**
	 * What the protected resource metadata said.
	 *
	 * @param location where it was read, or {@code null} when the server has none
	 * @param resource the resource identifier to send as RFC 8707 {@code resource}, exactly
	 * as published
	 * @param authorizationServers the issuers of its authorization servers
	 * @param scopesSupported its {@code scopes_supported}, empty when undefined
	 * @param fromMetadata whether it came from metadata (else the 2025-03-26 defaults)
	 */
	public record ProtectedResource(@Nullable URI location, String resource, List<String> authorizationServers,
			List<String> scopesSupported, boolean fromMetadata) {
	}

}
