package dev.mcpx.client.internal.recovery;

import dev.mcpx.client.error.McpHttpStatusException;

/**
 * Gets new credentials after the upstream refused the ones a request carried: the
 * application's {@code McpCredentials} seen from the recovery layer.
 */
@FunctionalInterface
public interface CredentialsRefresh {

	/**
	 * Refreshes the credentials.
	 * @param refusal the refusal (HTTP 401 or 403), with what the server said
	 * @return {@code true} when new credentials are in place and the request may be sent again
	 */
	boolean refresh(McpHttpStatusException refusal);

}
