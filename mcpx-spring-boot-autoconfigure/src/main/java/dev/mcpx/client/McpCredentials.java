package dev.mcpx.client;

import org.springframework.http.HttpHeaders;

import dev.mcpx.client.error.McpAuthenticationException;

/**
 * Supplies the credentials headers of every request to an upstream and, when the upstream
 * refuses them with HTTP 401, a chance to refresh them. After a successful refresh the
 * refused request is sent once more; otherwise it fails with
 * {@link McpAuthenticationException}.
 */
public interface McpCredentials {

	/**
	 * Adds the current credentials to a request's headers.
	 * @param headers the headers of the request about to be sent
	 */
	void apply(HttpHeaders headers);

	/**
	 * Refreshes the credentials after the upstream refused them.
	 * @return {@code true} if new credentials are available and the request should be sent
	 * again
	 */
	boolean refresh();

}
