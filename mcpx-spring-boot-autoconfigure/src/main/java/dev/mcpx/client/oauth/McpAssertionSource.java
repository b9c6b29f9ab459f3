package dev.mcpx.client.oauth;

import java.nio.file.Path;

/**
 * Where the assertion of a {@link McpOAuthGrant#JWT_BEARER} grant (the workload's identity
 * token) or of a {@link McpOAuthGrant#ENTERPRISE_MANAGED} grant (the user's identity assertion,
 * exchanged at the identity provider) comes from. It is asked at every grant, never cached by
 * the credentials: platforms rotate projected tokens, and a renewed access token must be
 * obtained with the current one.
 * <p>
 * The access token a grant obtains belongs to the upstream's credentials and serves every
 * caller, so an assertion stands for one identity (the workload, or one user the application
 * acts as), never for whichever user is calling at the moment.
 * <p>
 * A source that cannot supply an assertion throws; its message names what is missing and
 * never the assertion itself. The credentials check what it returns (not blank; a JWT where
 * one is expected, not expired) and fail the grant naming the step, without sending it.
 */
@FunctionalInterface
public interface McpAssertionSource {

	/**
	 * The current assertion.
	 * @return the assertion, as the authorization server or identity provider receives it
	 * @throws RuntimeException when there is none; its message must not hold a token
	 */
	String assertion();

	/**
	 * An assertion read from a file at every grant, as a Kubernetes projected service account
	 * token or a cloud platform's workload identity token is.
	 * @param path the file
	 * @return the source
	 */
	static McpAssertionSource file(Path path) {
		return new FileAssertionSource(path);
	}

}
