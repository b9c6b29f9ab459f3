package dev.mcpx.client.oauth;

import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;

import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import org.jspecify.annotations.Nullable;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * Reads the assertion of a grant from its {@link McpAssertionSource} and checks it before
 * anything is sent: present, not blank, and where a JWT is expected, a JWT that has not
 * expired (RFC 7523 §3: an expired assertion is refused by the authorization server, so
 * sending it only costs a request). Every failure is an {@link McpAuthorizationException}
 * naming the step and the source, never the assertion.
 */
final class Assertions {

	private Assertions() {
	}

	/**
	 * The assertion, as the source supplies it now.
	 * @param upstream the upstream name
	 * @param step what the assertion is for, for the message ("the workload token of the
	 * jwt-bearer grant")
	 * @param source where it comes from
	 * @return the assertion
	 */
	static String read(String upstream, String step, McpAssertionSource source) {
		String value;
		try {
			value = source.assertion();
		}
		catch (RuntimeException ex) {
			// the source's message names what is missing; the exception itself is not kept,
			// since an application's source may hold more than it should in its cause
			throw new McpAuthorizationException(upstream,
					step + " could not be read from " + source + ": " + ex.getMessage(), null);
		}
		if (value == null || value.isBlank()) {
			throw new McpAuthorizationException(upstream, step + " from " + source + " is empty", null);
		}
		return value.strip();
	}

	/**
	 * The assertion as a JWT, checked: it parses, is not encrypted, and has not expired.
	 * @param upstream the upstream name
	 * @param what what the assertion is and where it came from, for the message ("the
	 * workload token of the jwt-bearer grant from file '/var/run/token'")
	 * @param value the assertion
	 * @param clock the clock expiry is judged by
	 * @return the JWT, its signature unchecked (that is the authorization server's job)
	 */
	static Jwt jwt(String upstream, String what, String value, Clock clock) {
		JWT jwt;
		JWTClaimsSet claims;
		try {
			jwt = JWTParser.parse(value);
			claims = (jwt instanceof EncryptedJWT) ? null : jwt.getJWTClaimsSet();
		}
		catch (ParseException ex) {
			// the parser's message describes the structure, it does not quote the input
			throw new McpAuthorizationException(upstream,
					what + " is not a JWT (RFC 7519): " + ex.getMessage(), null);
		}
		if (claims == null) {
			throw new McpAuthorizationException(upstream,
					what + " is an encrypted JWT; an RFC 7523 assertion is a signed one", null);
		}
		Date expires = claims.getExpirationTime();
		Instant now = clock.instant();
		if (expires != null && !expires.toInstant().isAfter(now)) {
			// a platform rotates projected tokens well before they expire: a stale file means
			// whatever rotates it has stopped
			throw new McpAuthorizationException(upstream, what + " expired at "
					+ expires.toInstant() + "; the authorization server would refuse it", null);
		}
		Map<String, Object> headers = new LinkedHashMap<>(jwt.getHeader().toJSONObject());
		Map<String, Object> claimMap = new LinkedHashMap<>(claims.toJSONObject());
		instant(claimMap, "exp", claims.getExpirationTime());
		instant(claimMap, "iat", claims.getIssueTime());
		instant(claimMap, "nbf", claims.getNotBeforeTime());
		if (claimMap.isEmpty()) {
			// Spring's Jwt holds at least one claim; an assertion without any is refused anyway
			throw new McpAuthorizationException(upstream, what + " is a JWT without claims",
					null);
		}
		return Jwt.withTokenValue(value)
			.headers((h) -> h.putAll(headers))
			.claims((c) -> c.putAll(claimMap))
			.build();
	}

	private static void instant(Map<String, Object> claims, String name, @Nullable Date date) {
		if (date != null) {
			claims.put(name, date.toInstant());
		}
	}

}
