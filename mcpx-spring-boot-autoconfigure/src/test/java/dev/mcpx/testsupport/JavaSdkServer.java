package dev.mcpx.testsupport;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.JsonSchema;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An independent MCP server for interop tests: the official MCP Java SDK server 2.1.0
 * (sync, Streamable HTTP, sessions on) on an embedded Tomcat bound to 127.0.0.1 and a free
 * port. Plain Tomcat, no Spring context, so nothing of mcpx or of other tests' configuration
 * can leak into the server side.
 * <p>
 * Beyond serving, it observes and controls:
 * <ul>
 * <li>counts: {@link #initializeCount()}, {@link #deleteCount()},
 * {@link #requestCount(String)} per JSON-RPC method, {@link #executions(String)} per tool
 * (how often a handler really ran, which is what a replay must not double);</li>
 * <li>{@link #restart()}: every session forgotten, old session ids answered 404, as after a
 * process restart. The SDK cannot do that itself ({@code closeGracefully()} makes the
 * transport answer 503 forever), so a fresh transport and server are swapped in behind the
 * servlet Tomcat knows.</li>
 * </ul>
 * Defaults: tools {@code echo} (read-only), {@code set_value} (idempotent) and
 * {@code delete_item} (destructive); prompt {@code greeting} (argument {@code name});
 * resource {@code demo://readme} (text/plain); resource template
 * {@code demo://items/{id}}. A customizer given to {@link #start(Consumer)} may add,
 * replace or {@linkplain Spec#clear() drop} them.
 *
 * <pre>{@code
 * try (JavaSdkServer server = JavaSdkServer.start((spec) -> spec
 *         .tool("add", JavaSdkServer.readOnly(), (args) -> "3"))) {
 *     // point a client at server.url(), call, server.restart(), call again...
 *     assertThat(server.executions("add")).isEqualTo(2);
 * }
 * }</pre>
 */
public final class JavaSdkServer implements AutoCloseable {

	/** The path the server answers at. */
	public static final String PATH = "/mcp";

	private static final JsonMapper json = JsonMapper.builder().build();

	private final Spec spec;

	private final List<SyncToolSpecification> countedTools;

	private final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

	private final AtomicInteger deletes = new AtomicInteger();

	private final Path baseDir;

	private final Tomcat tomcat;

	private final Forwarder forwarder = new Forwarder();

	private volatile Incarnation live;

	private volatile String url;

	private boolean closed;

	private JavaSdkServer(Spec spec) throws IOException {
		this.spec = spec;
		this.countedTools = spec.tools.values().stream().map(this::counted).toList();
		this.baseDir = Files.createTempDirectory("java-sdk-server");
		this.tomcat = new Tomcat();
	}

	/**
	 * Starts a server with the default tools, prompt and resources.
	 * @return the running server
	 */
	public static JavaSdkServer start() {
		return start((spec) -> {
		});
	}

	/**
	 * Starts a server with the defaults as changed by the customizer.
	 * @param customizer adds, replaces or removes tools, prompts and resources
	 * @return the running server
	 */
	public static JavaSdkServer start(Consumer<Spec> customizer) {
		Spec spec = Spec.defaults();
		customizer.accept(spec);
		JavaSdkServer server;
		try {
			server = new JavaSdkServer(spec);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try {
			server.listen();
			return server;
		}
		catch (RuntimeException | LifecycleException ex) {
			IllegalStateException failure = new IllegalStateException("The Java SDK server did not start", ex);
			try {
				server.close();
			}
			catch (RuntimeException closeFailure) {
				failure.addSuppressed(closeFailure);
			}
			throw failure;
		}
	}

	private void listen() throws LifecycleException {
		this.tomcat.setBaseDir(this.baseDir.toString());
		this.tomcat.setSilent(true);
		Connector connector = new Connector();
		connector.setPort(0);
		connector.setProperty("address", "127.0.0.1");
		this.tomcat.setConnector(connector);
		StandardContext context = (StandardContext) this.tomcat.addContext("", null);
		// Tomcat's leak detection for redeployable webapps only adds noise to a test fixture.
		context.setClearReferencesRmiTargets(false);
		context.setClearReferencesThreadLocals(false);
		Wrapper servlet = Tomcat.addServlet(context, "mcp", this.forwarder);
		servlet.setAsyncSupported(true); // the SDK answers through startAsync()
		servlet.setLoadOnStartup(1); // so the first server exists before the first request
		context.addServletMappingDecoded(PATH, "mcp");
		this.tomcat.start();
		if (this.live == null) {
			// Tomcat logs a failed servlet init() rather than failing start(): make it loud.
			throw new IllegalStateException("The MCP servlet did not initialize", this.forwarder.initFailure);
		}
		this.url = "http://127.0.0.1:" + connector.getLocalPort() + PATH;
	}

	/**
	 * The MCP endpoint.
	 * @return for example {@code http://127.0.0.1:40123/mcp}
	 */
	public String url() {
		return this.url;
	}

	/**
	 * How many times a tool's handler ran, across restarts.
	 * @param tool the tool name
	 * @return the count, 0 for a tool never called or unknown
	 */
	public int executions(String tool) {
		return count(this.executions, tool);
	}

	/**
	 * How many {@code initialize} requests arrived, across restarts.
	 * @return the count
	 */
	public int initializeCount() {
		return requestCount("initialize");
	}

	/**
	 * How many HTTP DELETE requests arrived (whatever their session), across restarts.
	 * @return the count
	 */
	public int deleteCount() {
		return this.deletes.get();
	}

	/**
	 * How many POSTed JSON-RPC messages named this method, across restarts; notifications
	 * count too, answers to server requests (no method) do not.
	 * @param method for example {@code tools/call} or {@code notifications/initialized}
	 * @return the count
	 */
	public int requestCount(String method) {
		return count(this.requests, method);
	}

	/**
	 * Makes the server forget every session, as a process restart would: the next request
	 * bearing an old session id is answered 404. Tools and counts are kept.
	 */
	public synchronized void restart() {
		Incarnation previous = this.live;
		if (previous == null) {
			throw new IllegalStateException("The Java SDK server is closed");
		}
		this.live = incarnate(previous.number() + 1);
		previous.server().closeGracefully();
	}

	/**
	 * How many times the server has been (re)started: 1 until the first {@link #restart()}.
	 * @return the number of the running incarnation
	 */
	public int generation() {
		Incarnation incarnation = this.live;
		return (incarnation != null) ? incarnation.number() : 0;
	}

	/**
	 * Stops the server and Tomcat, and deletes Tomcat's working directory.
	 */
	@Override
	public synchronized void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			this.tomcat.stop(); // destroys the servlet, which closes the live server
			this.tomcat.destroy();
		}
		catch (LifecycleException ex) {
			throw new IllegalStateException("Could not stop Tomcat", ex);
		}
		finally {
			deleteRecursively(this.baseDir);
		}
	}

	/**
	 * Makes the live server announce that its tools or prompts changed, to every session
	 * (on the session's GET stream).
	 * @param kind {@code tools} or {@code prompts}
	 */
	public synchronized void announceListChanged(String kind) {
		McpSyncServer server = this.live.server();
		if (kind.equals("prompts")) {
			server.notifyPromptsListChanged();
		}
		else {
			server.notifyToolsListChanged();
		}
	}

	/** A brand-new transport and server: they share no session with any earlier one. */
	private Incarnation incarnate(int number) {
		HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
			.mcpEndpoint(PATH)
			// No idle-session sweeper: it would expire sessions on its own clock, and its
			// thread outlives the server (one leaked thread per restart).
			.sessionSweepInterval(null)
			.build();
		McpSyncServer server = McpServer.sync(transport)
			.serverInfo(this.spec.serverName, this.spec.serverVersion)
			.capabilities(ServerCapabilities.builder().tools(true).prompts(true).resources(false, true).build())
			.tools(this.countedTools)
			.prompts(new ArrayList<>(this.spec.prompts.values()))
			.resources(new ArrayList<>(this.spec.resources.values()))
			.resourceTemplates(new ArrayList<>(this.spec.resourceTemplates.values()))
			.build();
		try {
			transport.init(this.forwarder.getServletConfig());
		}
		catch (ServletException ex) {
			server.close();
			throw new IllegalStateException(ex);
		}
		return new Incarnation(number, transport, server);
	}

	private SyncToolSpecification counted(SyncToolSpecification tool) {
		String name = tool.tool().name();
		return SyncToolSpecification.builder().tool(tool.tool()).callHandler((exchange, request) -> {
			increment(this.executions, name);
			return tool.callHandler().apply(exchange, request);
		}).build();
	}

	private void recordMethods(byte[] body) {
		try {
			JsonNode message = json.readTree(body);
			for (JsonNode one : message.isArray() ? message : List.of(message)) {
				JsonNode method = one.get("method");
				if (method != null && method.isString()) {
					increment(this.requests, method.asString());
				}
			}
		}
		catch (JacksonException ex) {
			// Not JSON: nothing to count; the SDK will answer it.
		}
	}

	private static void increment(Map<String, AtomicInteger> counts, String key) {
		counts.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
	}

	private static int count(Map<String, AtomicInteger> counts, String key) {
		AtomicInteger count = counts.get(key);
		return (count != null) ? count.get() : 0;
	}

	private static void deleteRecursively(Path dir) {
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// Only a temporary directory left behind.
		}
	}

	/**
	 * Predefined annotations: {@code readOnlyHint: true}.
	 * @return read-only annotations
	 */
	public static ToolAnnotations readOnly() {
		return ToolAnnotations.builder().readOnlyHint(true).build();
	}

	/**
	 * Predefined annotations: {@code readOnlyHint: false, idempotentHint: true,
	 * destructiveHint: false}.
	 * @return idempotent annotations
	 */
	public static ToolAnnotations idempotent() {
		return ToolAnnotations.builder().readOnlyHint(false).idempotentHint(true).destructiveHint(false).build();
	}

	/**
	 * Predefined annotations: {@code readOnlyHint: false, destructiveHint: true,
	 * idempotentHint: false}.
	 * @return destructive annotations
	 */
	public static ToolAnnotations destructive() {
		return ToolAnnotations.builder().readOnlyHint(false).destructiveHint(true).idempotentHint(false).build();
	}

	/**
	 * What the server offers; changed by the customizer given to
	 * {@link JavaSdkServer#start(Consumer)}. A later registration under the same name
	 * replaces an earlier one (defaults included).
	 */
	public static final class Spec {

		private final Map<String, SyncToolSpecification> tools = new LinkedHashMap<>();

		private final Map<String, SyncPromptSpecification> prompts = new LinkedHashMap<>();

		private final Map<String, SyncResourceSpecification> resources = new LinkedHashMap<>();

		private final Map<String, SyncResourceTemplateSpecification> resourceTemplates = new LinkedHashMap<>();

		private String serverName = "java-sdk-test-server";

		private String serverVersion = "2.1.0";

		private Spec() {
		}

		private static Spec defaults() {
			Map<String, String> values = new ConcurrentHashMap<>();
			return new Spec()
				.tool(toolSpec("echo", "Echoes its text.", Map.of("text", "string"), readOnly(),
						(args) -> String.valueOf(args.get("text"))))
				.tool(toolSpec("set_value", "Sets a key to a value; setting it again changes nothing.",
						Map.of("key", "string", "value", "string"), idempotent(), (args) -> {
							values.put(String.valueOf(args.get("key")), String.valueOf(args.get("value")));
							return args.get("key") + "=" + args.get("value");
						}))
				.tool(toolSpec("delete_item", "Deletes an item for good.", Map.of("id", "string"), destructive(),
						(args) -> "deleted " + args.get("id")))
				.prompt("greeting", "name", (name) -> "Hello, " + name + "!")
				.resource("demo://readme", "text/plain", "This is the MCP Java SDK test server.")
				.resourceTemplate(new SyncResourceTemplateSpecification(
						ResourceTemplate.builder()
							.uriTemplate("demo://items/{id}")
							.name("item")
							.mimeType("text/plain")
							.build(),
						(exchange, request) -> text(request.uri(),
								"Item " + request.uri().substring("demo://items/".length()))));
		}

		/**
		 * Registers a tool that answers text, with an input schema accepting any object.
		 * @param name the tool name
		 * @param annotations its annotations, for example {@link JavaSdkServer#readOnly()}
		 * @param handler from the call's arguments to the result text
		 * @return this spec
		 */
		public Spec tool(String name, ToolAnnotations annotations, Function<Map<String, Object>, String> handler) {
			return tool(toolSpec(name, null, Map.of(), annotations, handler));
		}

		/**
		 * Registers a tool with full control of its definition and result (for example
		 * {@code isError}, structured content, or a handler that blocks or fails).
		 * Executions are counted all the same.
		 * @param tool the tool specification
		 * @return this spec
		 */
		public Spec tool(SyncToolSpecification tool) {
			this.tools.put(tool.tool().name(), tool);
			return this;
		}

		/**
		 * Registers a prompt with one required argument that renders to one user message.
		 * @param name the prompt name
		 * @param argument the argument name
		 * @param render from the argument's value to the message text
		 * @return this spec
		 */
		public Spec prompt(String name, String argument, Function<String, String> render) {
			Prompt prompt = new Prompt(name, null, List.of(new PromptArgument(argument, null, true)));
			return prompt(new SyncPromptSpecification(prompt, (exchange, request) -> {
				String text = render.apply(String.valueOf(request.arguments().get(argument)));
				return new GetPromptResult(null, List.of(new PromptMessage(Role.USER, new TextContent(text))));
			}));
		}

		/**
		 * Registers a prompt.
		 * @param prompt the prompt specification
		 * @return this spec
		 */
		public Spec prompt(SyncPromptSpecification prompt) {
			this.prompts.put(prompt.prompt().name(), prompt);
			return this;
		}

		/**
		 * Registers a resource with fixed text.
		 * @param uri the resource URI (also its name)
		 * @param mimeType its MIME type
		 * @param text its text
		 * @return this spec
		 */
		public Spec resource(String uri, String mimeType, String text) {
			Resource resource = Resource.builder().uri(uri).name(uri).mimeType(mimeType).build();
			return resource(new SyncResourceSpecification(resource,
					(exchange, request) -> new ReadResourceResult(
							List.of(new TextResourceContents(uri, mimeType, text)))));
		}

		/**
		 * Registers a resource.
		 * @param resource the resource specification
		 * @return this spec
		 */
		public Spec resource(SyncResourceSpecification resource) {
			this.resources.put(resource.resource().uri(), resource);
			return this;
		}

		/**
		 * Registers a resource template.
		 * @param template the resource template specification
		 * @return this spec
		 */
		public Spec resourceTemplate(SyncResourceTemplateSpecification template) {
			this.resourceTemplates.put(template.resourceTemplate().uriTemplate(), template);
			return this;
		}

		/**
		 * Sets the name and version the server declares in its {@code initialize} result.
		 * @param name the server name
		 * @param version the server version
		 * @return this spec
		 */
		public Spec serverInfo(String name, String version) {
			this.serverName = name;
			this.serverVersion = version;
			return this;
		}

		/**
		 * Drops every tool, prompt, resource and template registered so far, defaults
		 * included.
		 * @return this spec
		 */
		public Spec clear() {
			this.tools.clear();
			this.prompts.clear();
			this.resources.clear();
			this.resourceTemplates.clear();
			return this;
		}

		private static SyncToolSpecification toolSpec(String name, String description,
				Map<String, String> stringProperties, ToolAnnotations annotations,
				Function<Map<String, Object>, String> handler) {
			Map<String, Object> properties = new LinkedHashMap<>();
			stringProperties.forEach((property, type) -> properties.put(property, Map.of("type", type)));
			Tool tool = Tool.builder()
				.name(name)
				.description(description)
				.inputSchema(new JsonSchema("object", properties, List.copyOf(stringProperties.keySet()), null,
						null, null))
				.annotations(annotations)
				.build();
			return SyncToolSpecification.builder()
				.tool(tool)
				.callHandler((exchange, request) -> CallToolResult.builder()
					.addTextContent(handler.apply(request.arguments()))
					.isError(false)
					.build())
				.build();
		}

		private static ReadResourceResult text(String uri, String text) {
			return new ReadResourceResult(List.of(new TextResourceContents(uri, "text/plain", text)));
		}

	}

	private record Incarnation(int number, HttpServletStreamableServerTransportProvider transport,
			McpSyncServer server) {
	}

	/**
	 * The one servlet Tomcat knows: counts what arrives, then hands it to the live
	 * incarnation's transport.
	 */
	private final class Forwarder extends HttpServlet {

		private volatile Exception initFailure;

		@Override
		public void init() {
			ClassLoader tomcatLoader = useFixtureClassLoader();
			try {
				JavaSdkServer.this.live = incarnate(1);
			}
			catch (RuntimeException ex) {
				this.initFailure = ex;
				throw ex;
			}
			finally {
				Thread.currentThread().setContextClassLoader(tomcatLoader);
			}
		}

		@Override
		public void service(ServletRequest req, ServletResponse res) throws ServletException, IOException {
			ClassLoader tomcatLoader = useFixtureClassLoader();
			try {
				forward((HttpServletRequest) req, (HttpServletResponse) res);
			}
			finally {
				Thread.currentThread().setContextClassLoader(tomcatLoader);
			}
		}

		/**
		 * Threads the SDK starts (Reactor's) inherit the context class loader of the thread
		 * that first needs them. Give them the fixture's, not Tomcat's per-webapp loader,
		 * or Tomcat reports them as leaks of the webapp when it stops.
		 */
		private ClassLoader useFixtureClassLoader() {
			ClassLoader previous = Thread.currentThread().getContextClassLoader();
			Thread.currentThread().setContextClassLoader(JavaSdkServer.class.getClassLoader());
			return previous;
		}

		private void forward(HttpServletRequest request, HttpServletResponse response)
				throws ServletException, IOException {
			ServletRequest forwarded = request;
			if ("DELETE".equals(request.getMethod())) {
				JavaSdkServer.this.deletes.incrementAndGet();
			}
			else if ("POST".equals(request.getMethod())) {
				// The body can be read once: read it here, count, and let the SDK read a copy.
				byte[] body = request.getInputStream().readAllBytes();
				recordMethods(body);
				forwarded = new ReadAgain(request, body);
			}
			Incarnation incarnation = JavaSdkServer.this.live;
			if (incarnation == null) {
				response.sendError(503);
				return;
			}
			incarnation.transport().service(forwarded, response);
		}

		@Override
		public void destroy() {
			Incarnation last = JavaSdkServer.this.live;
			JavaSdkServer.this.live = null;
			if (last != null) {
				last.server().closeGracefully();
			}
		}

	}

	/** A request whose body, already consumed, can be read again. */
	private static final class ReadAgain extends HttpServletRequestWrapper {

		private final byte[] body;

		ReadAgain(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream bytes = new ByteArrayInputStream(this.body);
			return new ServletInputStream() {

				@Override
				public int read() {
					return bytes.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return bytes.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return bytes.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException("The body is already in memory");
				}

			};
		}

		@Override
		public BufferedReader getReader() {
			String encoding = getCharacterEncoding();
			Charset charset = (encoding != null) ? Charset.forName(encoding) : StandardCharsets.UTF_8;
			return new BufferedReader(new InputStreamReader(getInputStream(), charset));
		}

	}

}
