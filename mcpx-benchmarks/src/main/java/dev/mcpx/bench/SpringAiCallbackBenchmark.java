package dev.mcpx.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.ai.mcp.SyncMcpToolCallback;
import org.springframework.ai.tool.ToolCallback;

import dev.mcpx.autoconfigure.ai.McpxToolCallbackProvider;
import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.ProtocolMode;

/**
 * The cost of the Spring AI bridge: {@code tools/call echo} through mcpx's Spring AI
 * {@link ToolCallback} ({@code mcpxCallback}) against the same call through
 * {@link McpClient#callTool} ({@code mcpxClient}; target: p50 within 1.05x), and Spring AI's
 * own {@link SyncMcpToolCallback} over the official Java SDK client ({@code sdkCallback}), on
 * the same upstream. Latency only ({@code -bm sample -t 1}); each benchmark opens only its own
 * contender.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class SpringAiCallbackBenchmark {

	/** The arguments as a model sends them. */
	private static final String ARGUMENTS = "{\"text\":\"" + Upstream.TEXT + "\"}";

	/** {@code fixed}: negligible-cost endpoint; {@code sdk}: the official Java SDK server. */
	@Param({ "fixed" })
	public String upstream;

	private Upstream server;

	private McpClient client;

	private McpxToolCallbackProvider provider;

	private ToolCallback mcpxCallback;

	private McpSyncClient sdkClient;

	private ToolCallback sdkCallback;

	@Setup(Level.Trial)
	public void open() {
		this.server = Upstream.start(this.upstream);
		this.client = McpClient.builder("bench", URI.create(this.server.url())).protocol(ProtocolMode.LEGACY).build();
		this.provider = McpxToolCallbackProvider.of(new McpClients(List.of(this.client)));
		this.mcpxCallback = Arrays.stream(this.provider.getToolCallbacks())
			.filter((callback) -> callback.getToolDefinition().name().equals(Upstream.TOOL))
			.findFirst()
			.orElseThrow();
		URI uri = URI.create(this.server.url());
		this.sdkClient = io.modelcontextprotocol.client.McpClient
			.sync(HttpClientStreamableHttpTransport.builder(uri.getScheme() + "://" + uri.getRawAuthority())
				.endpoint(uri.getRawPath())
				.customizeClient((builder) -> builder.version(HttpClient.Version.HTTP_1_1))
				.build())
			.requestTimeout(Duration.ofSeconds(5))
			.build();
		this.sdkClient.initialize();
		McpSchema.Tool echo = this.sdkClient.listTools()
			.tools()
			.stream()
			.filter((tool) -> tool.name().equals(Upstream.TOOL))
			.findFirst()
			.orElseThrow();
		this.sdkCallback = SyncMcpToolCallback.builder().mcpClient(this.sdkClient).tool(echo).build();
		verify(this.mcpxCallback.call(ARGUMENTS), "mcpx's callback");
		verify(this.sdkCallback.call(ARGUMENTS), "Spring AI's callback");
	}

	@TearDown(Level.Trial)
	public void close() {
		try {
			this.provider.close();
			this.client.close();
			this.sdkClient.close();
		}
		finally {
			this.server.close();
		}
	}

	@Benchmark
	public Object mcpxClient() {
		return this.client.callTool(Upstream.TOOL, Contender.ARGUMENTS);
	}

	@Benchmark
	public Object mcpxCallback() {
		return this.mcpxCallback.call(ARGUMENTS);
	}

	@Benchmark
	public Object sdkCallback() {
		return this.sdkCallback.call(ARGUMENTS);
	}

	private static void verify(String result, String who) {
		if (result == null || !result.contains(Upstream.TEXT)) {
			throw new IllegalStateException(who + " got an unexpected result: " + result);
		}
	}

}
