package dev.mcpx.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A TCP proxy in front of an HTTP/1.1 MCP server that loses the response to chosen tool
 * calls while the server stays up, as a load balancer or a network that drops a connection
 * does: the request reaches the server and the tool runs; once the server's JSON-RPC
 * response (a {@code "result"} or an {@code "error"}) has come back to the proxy, both
 * connections are closed and not one byte of that HTTP response reaches the client, which
 * sees its connection end where the status line should be. Everything else passes through
 * unchanged.
 * <p>
 * It reads HTTP/1.1 as bytes, relying on a client sending the next request of a connection
 * only after the previous response (no pipelining), as the JDK's client does.
 */
public final class ResponseLosingProxy implements AutoCloseable {

	private static final Pattern TOOL_CALL = Pattern.compile("\"method\"\\s*:\\s*\"tools/call\"");

	/** What marks the server's answer in a JSON body or an event's data. */
	private static final Pattern ANSWER = Pattern.compile("\"(result|error)\"\\s*:");

	private static final int BUFFER_LIMIT = 1024 * 1024;

	private final int upstreamPort;

	private final ServerSocket server;

	private final Map<String, AtomicInteger> armed = new ConcurrentHashMap<>();

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger lost = new AtomicInteger();

	private volatile boolean closed;

	private ResponseLosingProxy(int upstreamPort) throws IOException {
		this.upstreamPort = upstreamPort;
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(this::accept, "losing-proxy-accept-" + this.server.getLocalPort());
		acceptor.setDaemon(true);
		acceptor.start();
	}

	/**
	 * Starts a proxy on a free port of 127.0.0.1 in front of a server on 127.0.0.1.
	 * @param upstreamPort the server's port; each client connection opens one to it
	 * @return the running proxy
	 */
	public static ResponseLosingProxy to(int upstreamPort) {
		try {
			return new ResponseLosingProxy(upstreamPort);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot open the proxy's port", ex);
		}
	}

	/**
	 * Returns a URL of the proxy.
	 * @param path the path, for example {@code /mcp}
	 * @return {@code http://127.0.0.1:<proxy port><path>}
	 */
	public String url(String path) {
		return "http://127.0.0.1:" + this.server.getLocalPort() + path;
	}

	/**
	 * Loses the responses to the next {@code times} calls of the tool (replacing what was
	 * armed for it before).
	 * @param tool the tool's name
	 * @param times how many calls; {@code 0} disarms
	 */
	public void loseResponseOf(String tool, int times) {
		this.armed.put(tool, new AtomicInteger(times));
	}

	/**
	 * Returns how many responses were lost so far.
	 * @return the count
	 */
	public int lost() {
		return this.lost.get();
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.server.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
		this.sockets.forEach(ResponseLosingProxy::closeQuietly);
	}

	private void accept() {
		while (!this.closed) {
			Socket client;
			try {
				client = this.server.accept();
			}
			catch (IOException ex) {
				return;
			}
			try {
				Socket upstream = new Socket(InetAddress.getLoopbackAddress(), this.upstreamPort);
				new Connection(client, upstream).start();
			}
			catch (IOException ex) {
				// the server is down: so is the connection through the proxy
				closeQuietly(client);
			}
		}
	}

	private boolean takeArmed(String request) {
		if (!TOOL_CALL.matcher(request).find()) {
			return false;
		}
		for (Map.Entry<String, AtomicInteger> entry : this.armed.entrySet()) {
			Pattern name = Pattern.compile("\"name\"\\s*:\\s*\"" + Pattern.quote(entry.getKey()) + "\"");
			if (name.matcher(request).find()
					&& entry.getValue().getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				return true;
			}
		}
		return false;
	}

	private static void closeQuietly(Socket socket) {
		try {
			socket.close();
		}
		catch (IOException ex) {
			// closing anyway
		}
	}

	/** One client connection and the server connection it was given. */
	private final class Connection {

		private final Socket client;

		private final Socket upstream;

		/** What the client sent since the server last answered on this connection. */
		private final StringBuilder request = new StringBuilder();

		/** What the server sent of a response being lost. */
		private final StringBuilder held = new StringBuilder();

		private boolean losing;

		Connection(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

		void start() {
			ResponseLosingProxy.this.sockets.add(this.client);
			ResponseLosingProxy.this.sockets.add(this.upstream);
			thread("up", this::clientToServer).start();
			thread("down", this::serverToClient).start();
		}

		private Thread thread(String direction, Runnable pump) {
			Thread thread = new Thread(() -> {
				try {
					pump.run();
				}
				finally {
					closeBoth();
				}
			}, "losing-proxy-" + direction + "-" + this.client.getPort());
			thread.setDaemon(true);
			return thread;
		}

		private void clientToServer() {
			pump(this.client, this.upstream, (bytes, length) -> {
				synchronized (this) {
					if (this.request.length() < BUFFER_LIMIT) {
						this.request.append(new String(bytes, 0, length, StandardCharsets.ISO_8859_1));
					}
					if (!this.losing && takeArmed(this.request.toString())) {
						this.losing = true;
					}
				}
				return true;
			});
		}

		private void serverToClient() {
			pump(this.upstream, this.client, (bytes, length) -> {
				synchronized (this) {
					if (!this.losing) {
						this.request.setLength(0);
						return true;
					}
					this.held.append(new String(bytes, 0, length, StandardCharsets.ISO_8859_1));
					if (ANSWER.matcher(this.held).find()) {
						ResponseLosingProxy.this.lost.incrementAndGet();
						closeBoth();
					}
					return false;
				}
			});
		}

		private void pump(Socket from, Socket to, Forwarding forwarding) {
			byte[] buffer = new byte[8192];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				int read;
				while ((read = in.read(buffer)) != -1) {
					if (forwarding.forward(buffer, read)) {
						out.write(buffer, 0, read);
						out.flush();
					}
				}
			}
			catch (IOException ex) {
				// either side closed the connection: so does the proxy
			}
		}

		private void closeBoth() {
			closeQuietly(this.client);
			closeQuietly(this.upstream);
			ResponseLosingProxy.this.sockets.remove(this.client);
			ResponseLosingProxy.this.sockets.remove(this.upstream);
		}

	}

	@FunctionalInterface
	private interface Forwarding {

		/** Looks at bytes read from one side; {@code true} to pass them to the other. */
		boolean forward(byte[] bytes, int length);

	}

}
