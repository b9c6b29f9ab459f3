package dev.mcpx.sample.tasks;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link ReportServer} in a process of its own, on the JDK's HTTP server, so that it outlives the application
 * when the application is killed mid-task. {@code GET /executions} tells how many reports were compiled, for the
 * demo's reader and its test.
 * <p>
 * Run it with {@code ./mvnw -pl mcpx-sample-app -am spring-boot:run
 * -Dspring-boot.run.main-class=dev.mcpx.sample.tasks.ReportUpstream -Dspring-boot.run.arguments=8091}
 * (mcpx-sample-app/DEMO.md, "A task that outlives the application").
 */
public final class ReportUpstream implements AutoCloseable {

	/** The path the server answers MCP requests on. */
	public static final String PATH = "/mcp";

	/** The tool that runs as a task. */
	public static final String TOOL = ReportServer.TOOL;

	private static final JsonMapper json = JsonMapper.shared();

	private final HttpServer server;

	private final ExecutorService requests = Executors.newCachedThreadPool();

	private final ReportServer reports = new ReportServer();

	private ReportUpstream(HttpServer server) {
		this.server = server;
	}

	/**
	 * Starts the server on {@code 127.0.0.1}.
	 * @param port the port, {@code 0} for any free one
	 * @return the running server
	 * @throws IOException if the port cannot be bound
	 */
	public static ReportUpstream start(int port) throws IOException {
		HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
		ReportUpstream upstream = new ReportUpstream(http);
		http.createContext(PATH, upstream::mcp);
		http.createContext("/executions",
				(exchange) -> send(exchange, new ReportServer.Reply(200, upstream.reports.executionsJson(), null)));
		http.setExecutor(upstream.requests);
		http.start();
		return upstream;
	}

	/**
	 * Starts the server and runs until the process ends.
	 * @param args the port (default 8091)
	 * @throws IOException if the port cannot be bound
	 */
	public static void main(String[] args) throws IOException {
		ReportUpstream upstream = start((args.length > 0) ? Integer.parseInt(args[0]) : 8091);
		System.out.println("Report upstream listening on http://127.0.0.1:" + upstream.port() + PATH);
	}

	/**
	 * The port it listens on.
	 * @return the port
	 */
	public int port() {
		return this.server.getAddress().getPort();
	}

	/**
	 * How many reports were compiled (a task created is a report compiled once).
	 * @return the count
	 */
	public int executions() {
		return this.reports.executions();
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.reports.close();
		this.requests.shutdownNow();
	}

	private void mcp(HttpExchange exchange) throws IOException {
		try (exchange) {
			send(exchange, this.reports.handle(exchange.getRequestMethod(),
					exchange.getRequestHeaders().getFirst("Mcp-Session-Id"), exchange.getRequestBody()));
		}
	}

	private static void send(HttpExchange exchange, ReportServer.Reply reply) throws IOException {
		if (reply.session() != null) {
			exchange.getResponseHeaders().add("Mcp-Session-Id", reply.session());
		}
		@Nullable JsonNode body = reply.body();
		if (body == null) {
			exchange.sendResponseHeaders(reply.status(), -1);
			return;
		}
		byte[] bytes = json.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(reply.status(), bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
