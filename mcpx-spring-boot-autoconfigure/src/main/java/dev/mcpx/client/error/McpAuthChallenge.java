package dev.mcpx.client.error;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Why an upstream refused a request's credentials: the HTTP status (401 or 403), the
 * parameters of its {@code Bearer} challenge in {@code WWW-Authenticate} (RFC 6750 §3,
 * RFC 9728 §5.1) and the resource the request was sent to. Handed to
 * {@link dev.mcpx.client.McpCredentials#refresh(McpAuthChallenge)}; none of its parts is a secret.
 *
 * @param status the HTTP status, 401 or 403
 * @param scheme the scheme of the challenge that was read ({@code Bearer} when offered), or
 * {@code null} when the response had no {@code WWW-Authenticate}
 * @param parameters the challenge's auth-params, names in lower case
 * @param resource the MCP endpoint the refused request was sent to
 */
public record McpAuthChallenge(int status, @Nullable String scheme, Map<String, String> parameters, URI resource) {

	/** The RFC 6750 §3.1 error of a token that lacks a scope the request needs. */
	public static final String INSUFFICIENT_SCOPE = "insufficient_scope";

	/**
	 * Creates a challenge.
	 * @param status the HTTP status, 401 or 403
	 * @param scheme the scheme, or {@code null}
	 * @param parameters the auth-params
	 * @param resource the MCP endpoint
	 */
	public McpAuthChallenge {
		parameters = Map.copyOf(parameters);
	}

	/**
	 * A challenge without parameters, as a server that sends no {@code WWW-Authenticate}
	 * gives.
	 * @param status the HTTP status
	 * @param resource the MCP endpoint
	 * @return the challenge
	 */
	public static McpAuthChallenge of(int status, URI resource) {
		return new McpAuthChallenge(status, null, Map.of(), resource);
	}

	/**
	 * Reads the {@code WWW-Authenticate} values of a refusal, preferring the {@code Bearer}
	 * challenge when several schemes are offered (2025-11-25 basic/authorization
	 * §Protected Resource Metadata Discovery Requirements: clients MUST be able to parse
	 * {@code WWW-Authenticate}). Malformed parts are skipped, never thrown.
	 * @param status the HTTP status
	 * @param headerValues the values of every {@code WWW-Authenticate} header
	 * @param resource the MCP endpoint
	 * @return the challenge
	 */
	public static McpAuthChallenge parse(int status, @Nullable List<String> headerValues, URI resource) {
		List<Challenge> challenges = new ArrayList<>();
		for (String value : (headerValues != null) ? headerValues : List.<String>of()) {
			if (value != null) {
				challenges.addAll(new Parser(value).challenges());
			}
		}
		Challenge chosen = challenges.stream()
			.filter((challenge) -> challenge.scheme().equalsIgnoreCase("Bearer"))
			.findFirst()
			.orElse(challenges.isEmpty() ? null : challenges.get(0));
		if (chosen == null) {
			return of(status, resource);
		}
		return new McpAuthChallenge(status, chosen.scheme(), chosen.parameters(), resource);
	}

	/**
	 * The URL of the protected resource metadata (RFC 9728 §5.1), if the challenge names one.
	 * @return the {@code resource_metadata} parameter, or {@code null}
	 */
	public @Nullable String resourceMetadata() {
		return this.parameters.get("resource_metadata");
	}

	/**
	 * The scopes the challenge asks for (RFC 6750 §3), in order, without duplicates.
	 * @return the scopes, empty when the challenge names none
	 */
	public Set<String> scopes() {
		String scope = this.parameters.get("scope");
		if (scope == null || scope.isBlank()) {
			return Set.of();
		}
		return new LinkedHashSet<>(Arrays.asList(scope.trim().split("\\s+")));
	}

	/**
	 * The challenge's {@code error} code, if any.
	 * @return for example {@code invalid_token} or {@code insufficient_scope}, or {@code null}
	 */
	public @Nullable String error() {
		return this.parameters.get("error");
	}

	/**
	 * Whether this is a runtime refusal for lack of scope: 403 with
	 * {@code error="insufficient_scope"} (2025-11-25 basic/authorization §Scope Challenge
	 * Handling).
	 * @return {@code true} for an insufficient-scope refusal
	 */
	public boolean isInsufficientScope() {
		return this.status == 403 && INSUFFICIENT_SCOPE.equals(error());
	}

	private record Challenge(String scheme, Map<String, String> parameters) {
	}

	/**
	 * RFC 9110 §11.6.1: {@code challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]},
	 * {@code auth-param = token BWS "=" BWS ( token / quoted-string )}, challenges separated
	 * by commas like their parameters.
	 */
	private static final class Parser {

		private final String text;

		private int position;

		Parser(String text) {
			this.text = text;
		}

		List<Challenge> challenges() {
			List<Challenge> result = new ArrayList<>();
			String scheme = null;
			Map<String, String> parameters = new LinkedHashMap<>();
			while (skipSeparators()) {
				String token = token();
				if (token.isEmpty()) {
					// not a token: skip one character so a malformed header cannot loop
					this.position++;
					continue;
				}
				skipSpaces();
				if (peek() == '=' && scheme != null) {
					int equals = this.position;
					while (peek() == '=') {
						this.position++;
					}
					skipSpaces();
					if (this.position - equals > 1 || peek() == ',' || peek() == 0) {
						// token68 (for example "Basic dXNlcg=="): a credential form, not a parameter
						continue;
					}
					String value = (peek() == '"') ? quoted() : token();
					parameters.putIfAbsent(token.toLowerCase(Locale.ROOT), value);
				}
				else {
					if (scheme != null) {
						result.add(new Challenge(scheme, parameters));
					}
					scheme = token;
					parameters = new LinkedHashMap<>();
				}
			}
			if (scheme != null) {
				result.add(new Challenge(scheme, parameters));
			}
			return result;
		}

		private boolean skipSeparators() {
			while (this.position < this.text.length()
					&& (this.text.charAt(this.position) == ',' || Character.isWhitespace(this.text.charAt(this.position)))) {
				this.position++;
			}
			return this.position < this.text.length();
		}

		private void skipSpaces() {
			while (this.position < this.text.length() && Character.isWhitespace(this.text.charAt(this.position))) {
				this.position++;
			}
		}

		private char peek() {
			return (this.position < this.text.length()) ? this.text.charAt(this.position) : 0;
		}

		private String token() {
			int start = this.position;
			while (this.position < this.text.length() && isTokenChar(this.text.charAt(this.position))) {
				this.position++;
			}
			return this.text.substring(start, this.position);
		}

		private String quoted() {
			StringBuilder value = new StringBuilder();
			this.position++;
			while (this.position < this.text.length()) {
				char c = this.text.charAt(this.position++);
				if (c == '\\' && this.position < this.text.length()) {
					value.append(this.text.charAt(this.position++));
				}
				else if (c == '"') {
					return value.toString();
				}
				else {
					value.append(c);
				}
			}
			return value.toString();
		}

		private static boolean isTokenChar(char c) {
			return c > 0x20 && c < 0x7f && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
		}

	}

}
