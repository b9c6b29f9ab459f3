package dev.mcpx.client;

import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthChallenge;

import dev.mcpx.client.error.McpAuthenticationException;

/**
 * Supplies the credentials headers of every request to an upstream and, when the upstream
 * refuses them with HTTP 401 (or 403 {@code insufficient_scope}), a chance to refresh them.
 * After a successful refresh the refused request is sent once more; otherwise it fails with
 * {@link McpAuthenticationException}.
 */
public interface McpCredentials {

	/**
	 * Adds the current credentials to a request's headers.
	 * @param headers the headers of the request about to be sent
	 */
	void apply(HttpHeaders headers);

	/**
	 * Refreshes the credentials after the upstream refused them with HTTP 401.
	 * @return {@code true} if new credentials are available and the request should be sent
	 * again
	 */
	boolean refresh();

	/**
	 * Refreshes the credentials after the upstream refused them, knowing why: the status,
	 * the parameters of its {@code WWW-Authenticate} challenge (for example
	 * {@code resource_metadata}, {@code scope}, {@code error="insufficient_scope"}) and the
	 * resource. The default refreshes on 401 through {@link #refresh()} and declines a 403,
	 * as credentials without a notion of scope cannot do better.
	 * @param challenge why the request was refused
	 * @return {@code true} if new credentials are available and the request should be sent
	 * again
	 */
	default boolean refresh(McpAuthChallenge challenge) {
		return challenge.status() == 401 && refresh();
	}

}
