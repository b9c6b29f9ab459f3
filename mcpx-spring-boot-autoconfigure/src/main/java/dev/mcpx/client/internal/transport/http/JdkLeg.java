package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

import dev.mcpx.client.internal.transport.NotSentException;

/**
 * The exchanges straight on a JDK client ({@link JdkHttp}): the exchange
 * {@link RestClientLeg} makes with the blocking JDK request factory, minus the pipeline: the
 * same request on the wire, the same failures (a request provably never sent is a
 * {@link NotSentException}), the same release of the response. Each exchange takes the
 * client from its lease and gives it back once its body is read or cut, so a shared client
 * with an exchange in flight is never released under it.
 */
final class JdkLeg implements HttpLeg {

	private static final byte[] NO_BODY = new byte[0];

	private final SharedHttpClients.Lease jdkClient;

	private final URI endpoint;

	/**
	 * The exchanges with one MCP endpoint straight on a JDK client.
	 * @param jdkClient the lease on the client, returned when the leg is closed
	 * @param endpoint the MCP endpoint URL
	 */
	JdkLeg(SharedHttpClients.Lease jdkClient, URI endpoint) {
		this.jdkClient = jdkClient;
		this.endpoint = endpoint;
	}

	@Override
	public URI endpoint() {
		return this.endpoint;
	}

	@Override
	public <T> T exchange(HttpMethod method, byte @Nullable [] body, Consumer<HttpHeaders> headers,
			ResponseReader<T> reader) throws IOException {
		SharedHttpClients.Lease lease = this.jdkClient;
		HttpClient client = lease.acquire();
		try {
			return exchange(client, method, body, headers, reader);
		}
		finally {
			// The body is read or cut by now: nothing of this exchange runs on the client.
			lease.release();
		}
	}

	private <T> T exchange(HttpClient client, HttpMethod method, byte @Nullable [] body,
			Consumer<HttpHeaders> headers, ResponseReader<T> reader) throws IOException {
		HttpHeaders requestHeaders = new HttpHeaders();
		headers.accept(requestHeaders);
		HttpResponse<InputStream> response;
		try {
			response = JdkHttp.send(client, this.endpoint, method.name(), requestHeaders,
					(body != null) ? body : NO_BODY);
		}
		catch (IOException ex) {
			throw NotSentException.provesNotSent(ex) ? new NotSentException(ex) : ex;
		}
		InputStream stream = response.body();
		T result;
		try {
			result = reader.read(new Response(response.statusCode(), JdkHttp.headers(response), stream));
		}
		catch (IOException | RuntimeException ex) {
			// As through a RestClient: abort the body rather than drain what may never end.
			BodyCut.abortQuietly(stream);
			throw ex;
		}
		JdkHttp.release(response);
		return result;
	}

	/** Returns the lease once; the shared client goes when its last lease is returned. */
	@Override
	public void close() {
		this.jdkClient.close();
	}

}
