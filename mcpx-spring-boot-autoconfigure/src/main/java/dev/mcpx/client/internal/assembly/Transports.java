package dev.mcpx.client.internal.assembly;

import java.net.URI;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.internal.assembly.ClientSettings.Http;
import dev.mcpx.client.internal.assembly.ClientSettings.HttpClientChoice;
import dev.mcpx.client.internal.assembly.ClientSettings.Replicas;
import dev.mcpx.client.internal.assembly.ClientSettings.RestClientOf;
import dev.mcpx.client.internal.assembly.ClientSettings.RestClientOnFirstUse;
import dev.mcpx.client.internal.assembly.ClientSettings.SharedJdkClient;
import dev.mcpx.client.internal.assembly.ClientSettings.Stdio;
import dev.mcpx.client.internal.protocol.JsonRpc;
import dev.mcpx.client.internal.protocol.Redaction;
import dev.mcpx.client.internal.transport.McpTransport;
import dev.mcpx.client.internal.transport.Watchdog;
import dev.mcpx.client.internal.transport.http.HttpLeg;
import dev.mcpx.client.internal.transport.http.HttpTransport;
import dev.mcpx.client.internal.transport.http.ReplicatedTransport;
import dev.mcpx.client.internal.transport.http.SharedHttpClients;
import dev.mcpx.client.internal.transport.stdio.StdioTransport;

/**
 * The wire of a client's settings as a transport: the one place a transport is chosen
 * (see {@code docs/architecture.md}, "The transport seam").
 */
final class Transports {

	private Transports() {
	}

	/**
	 * Streamable HTTP to the settings' URL or to the instances of a replicated upstream,
	 * through the application's {@code RestClient} or straight on a shared JDK client; or a
	 * stdio server process started from the settings' launch (2025-11-25 basic/transports
	 * §stdio).
	 */
	static McpTransport of(ClientSettings s, JsonRpc jsonRpc, Watchdog watchdog, Redaction redaction) {
		if (s.wire() instanceof Stdio stdio) {
			return new StdioTransport(s.name(), stdio.launch(), stdio.restartPolicy(), jsonRpc, s.maxMessageBytes(),
					s.clock());
		}
		if (s.wire() instanceof Replicas replicas) {
			HttpTransport.Settings settings = new HttpTransport.Settings(s.name(), replicas.headers(),
					s.maxMessageBytes(), s.recoveryPolicy().expiryOnBadRequest());
			Function<URI, HttpLeg> legs = legs(replicas.client());
			return new ReplicatedTransport(s.name(), replicas.instances(), replicas.headers(),
					(endpoint) -> new HttpTransport(settings, legs.apply(endpoint), jsonRpc, watchdog, redaction));
		}
		Http http = (Http) s.wire();
		HttpTransport.Settings settings = new HttpTransport.Settings(s.name(), http.headers(), s.maxMessageBytes(),
				s.recoveryPolicy().expiryOnBadRequest());
		return new HttpTransport(settings, legs(http.client()).apply(http.url()), jsonRpc, watchdog, redaction);
	}

	/**
	 * The HTTP exchanges with an endpoint: through the application's {@code RestClient} when it
	 * gave one (built at the first request when given as a supplier), else straight on a JDK
	 * client shared by every upstream with equal settings, built on first use
	 * (docs/architecture.md, "HTTP clients and the hot path"). The instances of a replicated
	 * upstream share the one {@code RestClient}, or each hold a lease on the shared JDK client.
	 */
	private static Function<URI, HttpLeg> legs(HttpClientChoice client) {
		if (client instanceof RestClientOf given) {
			RestClient restClient = onlyBytes(given.builder().clone()).build();
			return (url) -> HttpLeg.throughRestClient(() -> restClient, url);
		}
		if (client instanceof RestClientOnFirstUse onFirstUse) {
			Supplier<RestClient> restClient = SingletonSupplier
				.of(() -> onlyBytes(onFirstUse.builder().get().clone()).build());
			return (url) -> HttpLeg.throughRestClient(restClient, url);
		}
		SharedJdkClient jdk = (SharedJdkClient) client;
		return (url) -> HttpLeg.direct(SharedHttpClients.PROCESS.lease(jdk.settings(), jdk.factory()), url);
	}

	/**
	 * Every body mcpx sends is bytes it encoded itself: the default converters (JSON, XML,
	 * forms, each with its own mapper) would only cost heap per client and a lookup per
	 * request.
	 */
	private static RestClient.Builder onlyBytes(RestClient.Builder builder) {
		ByteArrayHttpMessageConverter bytes = new ByteArrayHttpMessageConverter();
		// A builder an application configured (Boot's) also registers converters when it is
		// built, each default one with a mapper of its own: left as they are, they are built
		// again for every upstream's client. Configured last, this leaves only the bytes.
		return builder.messageConverters(List.of(bytes))
			.configureMessageConverters((converters) -> converters.disableDefaults()
				.configureMessageConvertersList((list) -> {
					list.clear();
					list.add(bytes);
				}));
	}

}
