package dev.mcpx.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * What the sample's outside-in tests need to talk to the running app over HTTP.
 */
public final class SampleHttp {

	private SampleHttp() {
	}

	/**
	 * Sends a request and reads the answer as text.
	 * @param http the client
	 * @param request the request
	 * @return the response
	 */
	public static HttpResponse<String> send(HttpClient http, HttpRequest request) {
		try {
			return http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A port free on this machine now, for an app started on a known port.
	 * @return the port
	 */
	public static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
