package dev.mcpx.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JsonSchema;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.jspecify.annotations.Nullable;

/**
 * The realistic upstream: the official MCP Java SDK server 2.1.0 (sync, Streamable HTTP,
 * sessions on) on an embedded Tomcat bound to 127.0.0.1. It answers {@code tools/call} with
 * an event stream, as it does in production. {@link #forgetSessions()} swaps in a brand-new
 * transport and server behind a forwarding servlet, since the SDK cannot forget its
 * sessions otherwise (its {@code closeGracefully()} answers 503 forever).
 */
final class SdkUpstream implements Upstream {

	static final String PATH = "/mcp";

	private final Path baseDir;

	private final Tomcat tomcat = new Tomcat();

	private final Forwarder forwarder = new Forwarder();

	private final AtomicInteger initializes = new AtomicInteger();

	private volatile @Nullable Incarnation live;

	private volatile @Nullable String url;

	private SdkUpstream() throws IOException {
		this.baseDir = Files.createTempDirectory("mcpx-bench-sdk-server");
	}

	static SdkUpstream start() {
		try {
			SdkUpstream upstream = new SdkUpstream();
			upstream.listen();
			return upstream;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (LifecycleException ex) {
			throw new IllegalStateException("Tomcat did not start", ex);
		}
	}

	private void listen() throws LifecycleException {
		this.tomcat.setBaseDir(this.baseDir.toString());
		this.tomcat.setSilent(true);
		Connector connector = new Connector();
		connector.setPort(0);
		connector.setProperty("address", "127.0.0.1");
		// Tomcat closes a connection after 100 requests by default, and the JDK HttpClient
		// fails a POST that meets such a close on a pooled connection: not what is measured.
		connector.setProperty("maxKeepAliveRequests", "-1");
		this.tomcat.setConnector(connector);
		StandardContext context = (StandardContext) this.tomcat.addContext("", null);
		context.setClearReferencesRmiTargets(false);
		context.setClearReferencesThreadLocals(false);
		Wrapper servlet = Tomcat.addServlet(context, "mcp", this.forwarder);
		servlet.setAsyncSupported(true);
		servlet.setLoadOnStartup(1);
		context.addServletMappingDecoded(PATH, "mcp");
		this.tomcat.start();
		if (this.live == null) {
			throw new IllegalStateException("The MCP servlet did not initialize");
		}
		this.url = "http://127.0.0.1:" + connector.getLocalPort() + PATH;
	}

	@Override
	public String url() {
		return Objects.requireNonNull(this.url, "listening"); // start() listens before it returns
	}

	@Override
	public int initializeCount() {
		return this.initializes.get();
	}

	@Override
	public synchronized void forgetSessions() {
		Incarnation previous = Objects.requireNonNull(this.live, "live"); // listen() saw the servlet make it
		this.live = incarnate();
		previous.server().closeGracefully();
	}

	@Override
	public String[] threadNamePrefixes() {
		// Tomcat's connector threads; the sync server answers on them and Reactor's pools.
		return new String[] { "http-nio-", "Catalina-", "container-", "boundedElastic-", "parallel-" };
	}

	@Override
	public synchronized void close() {
		try {
			this.tomcat.stop();
			this.tomcat.destroy();
		}
		catch (LifecycleException ex) {
			throw new IllegalStateException(ex);
		}
		finally {
			try (Stream<Path> paths = Files.walk(this.baseDir)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
			catch (IOException ex) {
				// a temporary directory left behind
			}
		}
	}

	private Incarnation incarnate() {
		HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
			.mcpEndpoint(PATH)
			.sessionSweepInterval(null)
			.build();
		Tool tool = Tool.builder()
			.name(TOOL)
			.description("Echoes its text.")
			.inputSchema(new JsonSchema("object", Map.of("text", Map.of("type", "string")), List.of("text"), null,
					null, null))
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		SyncToolSpecification echo = SyncToolSpecification.builder()
			.tool(tool)
			.callHandler((exchange, request) -> CallToolResult.builder()
				.addTextContent(String.valueOf(request.arguments().get("text")))
				.isError(false)
				.build())
			.build();
		McpSyncServer server = McpServer.sync(transport)
			.serverInfo("java-sdk-server", "2.1.0")
			.capabilities(ServerCapabilities.builder().tools(true).build())
			.tools(echo)
			.build();
		try {
			transport.init(this.forwarder.getServletConfig());
		}
		catch (ServletException ex) {
			server.close();
			throw new IllegalStateException(ex);
		}
		return new Incarnation(transport, server);
	}

	private record Incarnation(HttpServletStreamableServerTransportProvider transport, McpSyncServer server) {
	}

	/** The servlet Tomcat knows: hands each request to the live incarnation. */
	private final class Forwarder extends HttpServlet {

		@Override
		public void init() {
			ClassLoader tomcatLoader = useOwnClassLoader();
			try {
				SdkUpstream.this.live = incarnate();
			}
			finally {
				Thread.currentThread().setContextClassLoader(tomcatLoader);
			}
		}

		@Override
		protected void service(HttpServletRequest request, HttpServletResponse response)
				throws ServletException, IOException {
			ClassLoader tomcatLoader = useOwnClassLoader();
			try {
				forward(request, response);
			}
			finally {
				Thread.currentThread().setContextClassLoader(tomcatLoader);
			}
		}

		/**
		 * Reactor's threads inherit the context class loader of the thread that first needs
		 * them: give them this one, not Tomcat's webapp loader, or Tomcat reports them as
		 * leaks of the webapp each time it stops.
		 */
		private ClassLoader useOwnClassLoader() {
			ClassLoader previous = Thread.currentThread().getContextClassLoader();
			Thread.currentThread().setContextClassLoader(SdkUpstream.class.getClassLoader());
			return previous;
		}

		private void forward(HttpServletRequest request, HttpServletResponse response)
				throws ServletException, IOException {
			if ("POST".equals(request.getMethod()) && request.getHeader("Mcp-Session-Id") == null) {
				// Only initialize is sent without a session: counted without reading the body.
				SdkUpstream.this.initializes.incrementAndGet();
			}
			Incarnation incarnation = SdkUpstream.this.live;
			if (incarnation == null) {
				response.sendError(503);
				return;
			}
			incarnation.transport().service(request, response);
		}

		@Override
		public void destroy() {
			Incarnation last = SdkUpstream.this.live;
			SdkUpstream.this.live = null;
			if (last != null) {
				last.server().closeGracefully();
			}
		}

	}

}
