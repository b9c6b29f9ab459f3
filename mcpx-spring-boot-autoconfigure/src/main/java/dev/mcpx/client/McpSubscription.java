package dev.mcpx.client;

/**
 * A subscription to one resource, from {@link McpClient#subscribe(String, java.util.function.Consumer)}.
 * It outlives recoveries: the client subscribes again in every new session. Closing it
 * unsubscribes.
 */
public interface McpSubscription extends AutoCloseable {

	/**
	 * The subscribed resource.
	 * @return its URI
	 */
	String uri();

	/**
	 * Stops the updates; the server is told when no other subscription of this client
	 * names the resource ({@code resources/unsubscribe}, errors ignored).
	 */
	@Override
	void close();

}
