package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.internal.transport.NotSentException;

/**
 * The exchanges through the application's {@link RestClient}: its request factory,
 * interceptors and observation apply. The client is the application's: closing the leg
 * leaves it as it is.
 */
final class RestClientLeg implements HttpLeg {

	private final Supplier<RestClient> restClient;

	private final URI endpoint;

	/**
	 * The exchanges with one MCP endpoint through a {@link RestClient}.
	 * @param restClient supplies the client on every exchange (it may build it on the first)
	 * @param endpoint the MCP endpoint URL
	 */
	RestClientLeg(Supplier<RestClient> restClient, URI endpoint) {
		this.restClient = restClient;
		this.endpoint = endpoint;
	}

	@Override
	public URI endpoint() {
		return this.endpoint;
	}

	@Override
	public <T> T exchange(HttpMethod method, byte @Nullable [] body, Consumer<HttpHeaders> headers,
			ResponseReader<T> reader) throws IOException {
		RestClient.RequestBodySpec spec = this.restClient.get().method(method).uri(this.endpoint).headers(headers);
		if (body != null) {
			spec = spec.body(body);
		}
		boolean[] responded = new boolean[1];
		try {
			return spec.exchange((request, response) -> {
				responded[0] = true;
				InputStream stream = response.getBody();
				try {
					return reader.read(new Response(response.getStatusCode().value(), response.getHeaders(), stream));
				}
				catch (IOException | RuntimeException ex) {
					// Closing the response would drain the rest of the body first, which may
					// never end (an oversized or endless body): abort it instead.
					BodyCut.abortQuietly(stream);
					throw ex;
				}
			}, true);
		}
		catch (ResourceAccessException ex) {
			IOException cause = (ex.getCause() instanceof IOException io) ? io : new IOException(ex.getMessage(), ex);
			throw (!responded[0] && NotSentException.provesNotSent(cause)) ? new NotSentException(cause) : cause;
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	@Override
	public void close() {
		// The RestClient and its HTTP library are the application's.
	}

}
