package dev.mcpx.client.oauth;

import java.net.URI;
import java.util.Locale;

import org.jspecify.annotations.Nullable;


/**
 * The rules every URL of the authorization flow must pass before the client sends anything
 * to it: 2026-07-28 basic/authorization/security-considerations §Communication Security
 * (authorization server endpoints over https, redirect URIs on localhost or https) and
 * a guard against server-side request forgery through metadata that names internal
 * addresses.
 */
final class SafeUrls {

	private SafeUrls() {
	}

	/**
	 * Checks a URL the client will fetch or post to.
	 * @param upstream the upstream name, for the exception
	 * @param what what the URL is, for the message (for example "token endpoint")
	 * @param url the URL
	 * @return the URL
	 * @throws McpAuthorizationException when it is not https (or http on loopback), carries
	 * user-info or a fragment, or names a link-local or unspecified address
	 */
	public static URI requireSafe(String upstream, String what, URI url) {
		if (url == null || !url.isAbsolute() || url.getHost() == null) {
			throw new McpAuthorizationException(upstream, what + " '" + url + "' is not an absolute http(s) URL", null);
		}
		if (isLinkLocalOrUnspecified(url.getHost())) {
			// Metadata from a server could point the client at a cloud metadata service.
			throw new McpAuthorizationException(upstream, what + " '" + url
					+ "' names a link-local or unspecified address, which an authorization flow never needs", null);
		}
		String scheme = url.getScheme().toLowerCase(Locale.ROOT);
		if (!scheme.equals("https") && !(scheme.equals("http") && isLoopback(url.getHost()))) {
			// 2026-07-28 basic/authorization/security-considerations §Communication Security
			throw new McpAuthorizationException(upstream, what + " '" + url
					+ "' must use https (plain http is accepted only on a loopback address)", null);
		}
		if (url.getRawUserInfo() != null) {
			throw new McpAuthorizationException(upstream, what + " must not carry user-info", null);
		}
		if (url.getRawFragment() != null) {
			throw new McpAuthorizationException(upstream, what + " '" + url + "' must not have a fragment", null);
		}
		return url;
	}

	/**
	 * Checks a redirect URI (2026-07-28 basic/authorization/security-considerations
	 * §Communication Security: localhost or https).
	 * @param property the setting that holds it, for the message
	 * @param redirectUri the redirect URI
	 * @return a problem, or {@code null} when it is fine
	 */
	public static @Nullable String redirectUriProblem(String property, @Nullable URI redirectUri) {
		if (redirectUri == null || !redirectUri.isAbsolute() || redirectUri.getHost() == null) {
			return property + " must be an absolute URL";
		}
		String scheme = redirectUri.getScheme().toLowerCase(Locale.ROOT);
		if (!scheme.equals("https") && !(scheme.equals("http") && isLoopback(redirectUri.getHost()))) {
			return property + " must use https, or http on localhost";
		}
		if (redirectUri.getRawFragment() != null) {
			return property + " must not have a fragment";
		}
		return null;
	}

	/**
	 * Whether a host is this machine.
	 * @param host a host name or address literal
	 * @return {@code true} for {@code localhost}, {@code 127.0.0.0/8} and {@code ::1}
	 */
	public static boolean isLoopback(String host) {
		String h = strip(host).toLowerCase(Locale.ROOT);
		return h.equals("localhost") || h.endsWith(".localhost") || h.startsWith("127.") || h.equals("::1")
				|| h.equals("0:0:0:0:0:0:0:1");
	}

	private static boolean isLinkLocalOrUnspecified(String host) {
		String h = strip(host).toLowerCase(Locale.ROOT);
		return h.startsWith("169.254.") || h.startsWith("fe80:") || h.equals("0.0.0.0") || h.equals("::")
				|| h.equals("0:0:0:0:0:0:0:0");
	}

	private static String strip(String host) {
		return (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
	}

	/**
	 * The origin of a URL: scheme, host and port, without a trailing slash.
	 * @param url the URL
	 * @return for example {@code https://mcp.example.com:8443}
	 */
	public static String origin(URI url) {
		return url.getScheme().toLowerCase(Locale.ROOT) + "://" + url.getRawAuthority().toLowerCase(Locale.ROOT);
	}

	/**
	 * Whether a protected resource identifier covers an MCP endpoint: the same origin, and the
	 * resource's path is the endpoint's path or one of its parents (RFC 9728 §3.3).
	 * @param resource the {@code resource} of protected resource metadata
	 * @param endpoint the MCP endpoint the client talks to
	 * @return {@code true} when the metadata is about this endpoint
	 */
	public static boolean covers(URI resource, URI endpoint) {
		if (resource == null || !resource.isAbsolute() || resource.getRawAuthority() == null
				|| !origin(resource).equals(origin(endpoint))) {
			return false;
		}
		String resourcePath = trimSlash(resource.getRawPath());
		String endpointPath = trimSlash(endpoint.getRawPath());
		return resourcePath.isEmpty() || endpointPath.equals(resourcePath)
				|| endpointPath.startsWith(resourcePath + "/");
	}

	/**
	 * A path without its trailing slash; the root is the empty path.
	 * @param path a path, or {@code null}
	 * @return the path without a trailing slash
	 */
	public static String trimSlash(String path) {
		if (path == null) {
			return "";
		}
		return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
	}

}
