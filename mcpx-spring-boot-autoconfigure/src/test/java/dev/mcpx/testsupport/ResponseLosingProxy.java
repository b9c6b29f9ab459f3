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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A TCP proxy in front of an HTTP/1.1 MCP server that loses the response to chosen tool
 * calls while the server stays up, as a load balancer or a network that drops a connection
 * does: the request reaches the server and the tool runs; once the server's JSON-RPC
 * response (a {@code "result"} or an {@code "error"}) has come back to the proxy, both
 * connections are closed and not one byte of that HTTP response reaches the client, which
 * sees its connection end where the status line should be. Everything else passes through
 * unchanged. Or it cuts a response in the middle of an event stream
 * ({@link #cutInsideEvent(String, int)}): the client gets the events before, and of the chosen
 * event its {@code id:} line only.
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

	/** An event's {@code id:} line, whole, at the start of a line. */
	private static final Pattern ID_LINE = Pattern.compile("(?m)^id:[^\n]*\n");

	private final Map<String, Arming> armed = new ConcurrentHashMap<>();

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final AtomicInteger lost = new AtomicInteger();

	/** The prefix of an arming by method rather than by tool. */
	private static final String METHOD_ARMING = "method:";

	/** JSON-RPC requests that reached the server, per method. */
	private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

	private static final Pattern METHOD = Pattern.compile("\"method\"\\s*:\\s*\"([^\"]+)\"");

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
		this.armed.put(tool, new Arming(new AtomicInteger(times), 0));
	}

	/**
	 * Loses the responses to the next {@code times} requests of a method other than
	 * {@code tools/call} (a poll, {@code tasks/get}), as {@link #loseResponseOf(String, int)}
	 * does for a tool's calls.
	 * @param method the JSON-RPC method
	 * @param times how many requests; {@code 0} disarms
	 */
	public void loseResponseOfMethod(String method, int times) {
		this.armed.put(METHOD_ARMING + method, new Arming(new AtomicInteger(times), 0));
	}

	/**
	 * Cuts the event stream answering the next call of the tool inside its {@code event}-th
	 * event (counted from 1), right after that event's {@code id:} line: the events before it
	 * reach the client whole, of that one only the {@code id:} line, then both connections
	 * are closed. Replaces what was armed for the tool before.
	 * @param tool the tool's name
	 * @param event which event to cut inside, from 1
	 */
	public void cutInsideEvent(String tool, int event) {
		this.armed.put(tool, new Arming(new AtomicInteger(1), event));
	}

	/**
	 * Returns how many responses were lost or cut so far.
	 * @return the count
	 */
	public int lost() {
		return this.lost.get();
	}

	/**
	 * Returns how many requests of a method the server answered (at least its first byte) so
	 * far, responses lost or not: what the server saw.
	 * @param method the JSON-RPC method, for example {@code tools/call}
	 * @return the count
	 */
	public int requests(String method) {
		AtomicInteger count = this.requests.get(method);
		return (count != null) ? count.get() : 0;
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

	/** What is armed for the request, taking one of its times; {@code null} when nothing is. */
	private @Nullable Arming takeArmed(String request) {
		for (Map.Entry<String, Arming> entry : this.armed.entrySet()) {
			if (entry.getKey().startsWith(METHOD_ARMING)) {
				Pattern method = Pattern.compile("\"method\"\\s*:\\s*\""
						+ Pattern.quote(entry.getKey().substring(METHOD_ARMING.length())) + "\"");
				if (method.matcher(request).find()
						&& entry.getValue().times().getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
					return entry.getValue();
				}
			}
		}
		if (!TOOL_CALL.matcher(request).find()) {
			return null;
		}
		for (Map.Entry<String, Arming> entry : this.armed.entrySet()) {
			if (entry.getKey().startsWith(METHOD_ARMING)) {
				continue;
			}
			Pattern name = Pattern.compile("\"name\"\\s*:\\s*\"" + Pattern.quote(entry.getKey()) + "\"");
			if (name.matcher(request).find()
					&& entry.getValue().times().getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				return entry.getValue();
			}
		}
		return null;
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

		/** What the server sent of a response being lost or cut. */
		private final StringBuilder held = new StringBuilder();

		/** What is armed for the response to come, {@code null} when it passes. */
		private @Nullable Arming arming;

		/** Set once the bytes up to a cut are forwarded: close after writing them. */
		private boolean cutAfterWrite;

		/** Whether the request being answered was counted. */
		private boolean counted;

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
					if (this.arming == null) {
						this.arming = takeArmed(this.request.toString());
					}
				}
				return length;
			});
		}

		private void serverToClient() {
			pump(this.upstream, this.client, (bytes, length) -> {
				synchronized (this) {
					if (!this.counted && this.request.length() > 0) {
						// the server answers: the request it read is whole
						Matcher method = METHOD.matcher(this.request);
						while (method.find()) {
							ResponseLosingProxy.this.requests.computeIfAbsent(method.group(1), (m) -> new AtomicInteger())
								.incrementAndGet();
						}
						this.counted = true;
					}
					if (this.arming == null) {
						this.request.setLength(0);
						this.counted = false;
						return length;
					}
					int before = this.held.length();
					this.held.append(new String(bytes, 0, length, StandardCharsets.ISO_8859_1));
					if (this.arming.event() == 0) {
						if (ANSWER.matcher(this.held).find()) {
							ResponseLosingProxy.this.lost.incrementAndGet();
							closeBoth();
						}
						return 0;
					}
					int cut = endOfIdLine(this.arming.event());
					if (cut < 0) {
						if (ANSWER.matcher(this.held).find()) {
							// answered in fewer events (or in JSON): it passes, and so do the next
							this.arming = null;
							this.held.setLength(0);
						}
						return length;
					}
					ResponseLosingProxy.this.lost.incrementAndGet();
					this.arming = null;
					this.held.setLength(0);
					// the pump writes these bytes, then finds the connection closed
					this.cutAfterWrite = true;
					return cut - before;
				}
			});
		}

		/** The end of the body's {@code event}-th {@code id:} line in what is held, or -1. */
		private int endOfIdLine(int event) {
			int body = this.held.indexOf("\r\n\r\n");
			if (body < 0) {
				return -1;
			}
			Matcher line = ID_LINE.matcher(this.held);
			line.region(body + 4, this.held.length());
			for (int found = 0; line.find();) {
				if (++found == event) {
					return line.end();
				}
			}
			return -1;
		}

		private void pump(Socket from, Socket to, Forwarding forwarding) {
			byte[] buffer = new byte[8192];
			try {
				InputStream in = from.getInputStream();
				OutputStream out = to.getOutputStream();
				int read;
				while ((read = in.read(buffer)) != -1) {
					int forward = forwarding.forward(buffer, read);
					if (forward > 0) {
						out.write(buffer, 0, forward);
						out.flush();
					}
					synchronized (this) {
						if (this.cutAfterWrite) {
							closeBoth();
							return;
						}
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

	/** A tool's arming: how many calls are left, and which event to cut inside (0: lose it all). */
	private record Arming(AtomicInteger times, int event) {
	}

	@FunctionalInterface
	private interface Forwarding {

		/** Looks at bytes read from one side; returns how many of the first to pass to the other. */
		int forward(byte[] bytes, int length);

	}

}
