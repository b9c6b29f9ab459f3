package dev.mcpx.autoconfigure;

import dev.mcpx.client.McpCredentials;

/**
 * Supplies the credentials of each upstream. Define one as a bean to have tokens applied
 * per request and refreshed once when an upstream answers 401.
 */
@FunctionalInterface
public interface McpCredentialsProvider {

	/**
	 * The credentials of one upstream.
	 * @param upstream the upstream name
	 * @return its credentials, or {@code null} when this provider has none for it
	 */
	McpCredentials credentials(String upstream);

}
