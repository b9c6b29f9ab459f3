package dev.mcpx.client.internal.transport.http;

import java.net.http.HttpClient;

/**
 * Where an exchange takes its JDK client, and where it says it is done with it: a client
 * shared by upstreams ({@link SharedHttpClients.Lease}) is released while nothing uses it,
 * so it must know which exchanges are still running on it.
 */
public interface JdkClientSource {

	/**
	 * The client for one exchange; {@link #release()} follows once the exchange, its body
	 * included, is over.
	 * @return the client
	 */
	HttpClient acquire();

	/** Ends the exchange that the matching {@link #acquire()} began. */
	void release();

	/**
	 * A source of one client that is never released.
	 * @param client the client
	 * @return the source
	 */
	static JdkClientSource of(HttpClient client) {
		return new JdkClientSource() {

			@Override
			public HttpClient acquire() {
				return client;
			}

			@Override
			public void release() {
				// Nothing to count: the client is the application's.
			}

		};
	}

}
