package dev.mcpx.client.oauth;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The default {@link McpClientRegistrationStore}: registrations in memory, lost when the
 * application stops.
 */
public final class InMemoryMcpClientRegistrationStore implements McpClientRegistrationStore {

	private final Map<String, McpRegisteredClient> clients = new ConcurrentHashMap<>();

	@Override
	public Optional<McpRegisteredClient> find(String upstream, String issuer) {
		return Optional.ofNullable(this.clients.get(key(upstream, issuer)));
	}

	@Override
	public void save(String upstream, McpRegisteredClient client) {
		this.clients.put(key(upstream, client.issuer()), client);
	}

	@Override
	public void remove(String upstream, String issuer) {
		this.clients.remove(key(upstream, issuer));
	}

	private static String key(String upstream, String issuer) {
		return upstream + " " + issuer;
	}

}
