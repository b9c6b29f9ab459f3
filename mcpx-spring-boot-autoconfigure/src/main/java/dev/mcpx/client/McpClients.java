package dev.mcpx.client;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Every configured {@link McpClient}, by upstream name, in declaration order.
 */
public final class McpClients implements Iterable<McpClient>, AutoCloseable {

	private final Map<String, McpClient> clients;

	/**
	 * Creates a registry of the given clients.
	 * @param clients the clients; their names must be unique
	 */
	public McpClients(Iterable<? extends McpClient> clients) {
		Map<String, McpClient> byName = new LinkedHashMap<>();
		for (McpClient client : clients) {
			if (byName.putIfAbsent(client.name(), client) != null) {
				throw new IllegalArgumentException("Duplicate MCP upstream name '" + client.name() + "'");
			}
		}
		this.clients = Collections.unmodifiableMap(byName);
	}

	/**
	 * Returns the client of the named upstream.
	 * @param name the upstream name
	 * @return the client
	 * @throws IllegalArgumentException if no upstream has that name
	 */
	public McpClient get(String name) {
		McpClient client = this.clients.get(name);
		if (client == null) {
			throw new IllegalArgumentException(
					"No MCP upstream named '" + name + "'; configured: " + this.clients.keySet());
		}
		return client;
	}

	/**
	 * Returns the names of all upstreams.
	 * @return the names, in declaration order
	 */
	public Set<String> names() {
		return this.clients.keySet();
	}

	@Override
	public Iterator<McpClient> iterator() {
		return this.clients.values().iterator();
	}

	/**
	 * Closes every client, ending their sessions.
	 */
	@Override
	public void close() {
		this.clients.values().forEach(McpClient::close);
	}

}
