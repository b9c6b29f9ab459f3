package dev.mcpx.client;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.Supplier;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.internal.transport.http.BlockingJdkRequestFactory;
import dev.mcpx.client.internal.transport.http.SharedHttpClients;

/**
 * The JDK HTTP clients of an application's MCP upstreams, for a
 * {@link McpClientBuilder#restClientBuilder(RestClient.Builder) RestClient} of its own:
 * upstreams whose HTTP settings are equal share one JDK {@link HttpClient} (one selector
 * thread, one pool of connections kept apart by host and port), each built when its first
 * request is sent. Closing this releases every client it built (from Java 21 on; on Java
 * 17 they go with the garbage collector), so it lives as long as the clients that use it,
 * for example as long as an application context.
 * <p>
 * A client built without a {@code RestClient} of the application's needs none of this: it
 * shares a JDK client with every such client of the same connect timeout by itself.
 */
public final class McpHttpClients implements AutoCloseable {

	private final SharedHttpClients clients = new SharedHttpClients();

	/**
	 * A request factory that sends each request blocking, with its byte-array body, on the
	 * caller's thread, on the JDK client shared by every factory of equal settings. On
	 * loopback this is several times faster than Spring's streaming JDK request factory, which
	 * hands every body to another thread; MCP messages are small and complete before they
	 * are sent. No read timeout is needed: mcpx bounds every exchange itself.
	 * @param settings the settings the client is built with, compared by {@code equals} (a
	 * record of them, for example): factories of equal settings share one client
	 * @param factory builds the client on first use; HTTP/1.1 and no redirects are what mcpx
	 * expects of it
	 * @return the request factory
	 */
	public ClientHttpRequestFactory requestFactory(Object settings, Supplier<HttpClient> factory) {
		return new BlockingJdkRequestFactory(this.clients.lease(settings, factory));
	}

	/**
	 * The JDK clients built so far and not released.
	 * @return how many
	 */
	public int builtClients() {
		return this.clients.builtClients();
	}

	/** Releases every client this built: requests sent on them later fail. */
	@Override
	public void close() {
		this.clients.close();
	}

	/**
	 * Applies what mcpx expects of a JDK client that upstreams share: HTTP/1.1, since MCP
	 * endpoints are plain HTTP servers and an h2c upgrade attempt buys nothing; and worker
	 * threads of its own that end after a few seconds idle (the JDK's default pool keeps
	 * them a minute), so idle upstreams hold no thread but the client's selector.
	 * @param builder the builder of a client to be shared
	 * @return the same builder
	 */
	public static HttpClient.Builder sharedClientDefaults(HttpClient.Builder builder) {
		return builder.version(HttpClient.Version.HTTP_1_1).executor(SharedHttpClients.workers());
	}

	/**
	 * The JDK client mcpx builds for upstreams without application HTTP settings: the shared
	 * client's defaults, and no redirects, which could carry credentials to another origin.
	 */
	static HttpClient newJdkClient(Duration connectTimeout) {
		return sharedClientDefaults(HttpClient.newBuilder()).connectTimeout(connectTimeout)
			.followRedirects(HttpClient.Redirect.NEVER)
			.build();
	}

}
