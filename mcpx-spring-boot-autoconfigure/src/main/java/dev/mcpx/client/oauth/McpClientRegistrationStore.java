package dev.mcpx.client.oauth;

import java.util.Optional;

/**
 * Keeps the clients registered dynamically with each authorization server, so a client is
 * registered once per authorization server rather than on every authorization. Keyed by the
 * authorization server's issuer identifier, never shared across issuers (2026-07-28
 * basic/authorization/client-registration §Authorization Server Binding). Implement it on a
 * database or a secret store to survive restarts of the application; the default keeps them
 * in memory.
 */
public interface McpClientRegistrationStore {

	/**
	 * The client registered with an authorization server.
	 * @param upstream the upstream name
	 * @param issuer the authorization server's issuer identifier
	 * @return the registration, if one was saved
	 */
	Optional<McpRegisteredClient> find(String upstream, String issuer);

	/**
	 * Saves a registration.
	 * @param upstream the upstream name
	 * @param client the registration, which names its issuer
	 */
	void save(String upstream, McpRegisteredClient client);

	/**
	 * Forgets a registration the authorization server no longer accepts.
	 * @param upstream the upstream name
	 * @param issuer the authorization server's issuer identifier
	 */
	void remove(String upstream, String issuer);

	/**
	 * A store in memory, for one run of the application.
	 * @return a new, empty store
	 */
	static McpClientRegistrationStore inMemory() {
		return new InMemoryMcpClientRegistrationStore();
	}

}
