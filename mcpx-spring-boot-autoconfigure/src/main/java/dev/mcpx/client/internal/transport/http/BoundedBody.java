package dev.mcpx.client.internal.transport.http;

import java.io.IOException;
import java.io.InputStream;

import dev.mcpx.client.error.McpProtocolException;
import dev.mcpx.client.internal.transport.StreamBrokenException;

/**
 * Reads response bodies within a bound on memory: a server cannot make the client hold
 * more than the largest message it accepts, nor read an error body to its end.
 */
final class BoundedBody {

	/** Error bodies are read only far enough to find a JSON-RPC error in them. */
	static final int MAX_ERROR_BODY_BYTES = 64 * 1024;

	private final String upstream;

	private final int maxMessageBytes;

	BoundedBody(String upstream, int maxMessageBytes) {
		this.upstream = upstream;
		this.maxMessageBytes = maxMessageBytes;
	}

	int maxMessageBytes() {
		return this.maxMessageBytes;
	}

	/**
	 * The whole body, bounded: exactly {@code Content-Length} bytes when the server gave it
	 * (no scratch buffer per response), else read up to the bound.
	 */
	byte[] read(HttpLeg.Response response, String method) throws IOException {
		int max = this.maxMessageBytes;
		long length = response.headers().getContentLength();
		if (length > max) {
			throw tooLarge(method);
		}
		if (length >= 0) {
			byte[] whole = (response.body() instanceof WholeBody body) ? body.takeAll(length) : null;
			if (whole != null) {
				return whole; // received whole: no copy
			}
			byte[] bytes = response.body().readNBytes((int) length);
			if (bytes.length < length) {
				throw new StreamBrokenException("the JSON body ended after " + bytes.length + " of " + length
						+ " bytes", null, null);
			}
			return bytes;
		}
		byte[] bytes = response.body().readNBytes(max + 1);
		if (bytes.length > max) {
			throw tooLarge(method);
		}
		return bytes;
	}

	/**
	 * An error body, only as far as it may hold a JSON-RPC error: exactly
	 * {@code Content-Length} bytes when it is given and small enough (no scratch buffer).
	 */
	static byte[] readError(HttpLeg.Response response) throws IOException {
		long length = response.headers().getContentLength();
		InputStream body = response.body();
		if (length < 0 || length >= MAX_ERROR_BODY_BYTES) {
			return body.readNBytes(MAX_ERROR_BODY_BYTES);
		}
		byte[] bytes = body.readNBytes((int) length);
		// Seeing the end lets the HTTP client keep the connection: the failure that follows
		// aborts the body, and an aborted body that was not seen to end costs its connection.
		body.read();
		return bytes;
	}

	private McpProtocolException tooLarge(String method) {
		return new McpProtocolException(this.upstream,
				method + "'s response exceeded the limit of " + this.maxMessageBytes + " bytes", null);
	}

}
