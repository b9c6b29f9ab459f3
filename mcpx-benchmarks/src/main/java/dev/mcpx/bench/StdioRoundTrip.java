package dev.mcpx.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.StdioCommand;

/**
 * stdio {@code tools/call} through mcpx against a raw pipe round trip of the same bytes, both
 * to the same trivial child process (a Node script that answers each request line with a
 * canned response line): what mcpx adds on top of the pipe. Plain {@code main}, printed
 * results; run with {@code java -cp ... dev.mcpx.bench.StdioRoundTrip [calls]}.
 */
public final class StdioRoundTrip {

	/** Answers initialize, tools/list and tools/call; anything else with -32601. */
	static final String CANNED_SERVER = """
			const rl = require('readline').createInterface({ input: process.stdin });
			rl.on('line', (line) => {
			  const m = JSON.parse(line);
			  if (m.id === undefined) return;
			  let result;
			  if (m.method === 'initialize') result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'canned', version: '1' } };
			  else if (m.method === 'tools/call') result = { content: [{ type: 'text', text: 'hello' }] };
			  else if (m.method === 'tools/list') result = { tools: [] };
			  else { process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not found' } }) + '\\n'); return; }
			  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
			});
			rl.on('close', () => process.exit(0));
			""";

	private StdioRoundTrip() {
	}

	public static void main(String[] args) throws Exception {
		int calls = (args.length > 0) ? Integer.parseInt(args[0]) : 5000;
		String node = System.getProperty("mcpx.bench.node", "node");
		long[] raw = raw(node, calls);
		long[] mcpx;
		double throughput;
		try (McpClient client = McpClient.stdio("bench", new StdioCommand(node, List.of("-e", CANNED_SERVER),
				Map.of(), null, true))
			.protocol(ProtocolMode.LEGACY)
			.listenForChanges(false)
			.build()) {
			mcpx = timed(calls, () -> client.callTool("echo", Map.of("text", "hello")));
			throughput = throughput(client, 8, Duration.ofSeconds(3));
		}
		long[] sdk = sdk(node, calls);
		System.out.printf("Java SDK  p50 %6.1f us  p90 %6.1f us  (p50 %.2fx raw)%n", percentile(sdk, 50),
				percentile(sdk, 90), percentile(sdk, 50) / percentile(raw, 50));
		System.out.printf("raw pipe  p50 %6.1f us  p90 %6.1f us%n", percentile(raw, 50), percentile(raw, 90));
		System.out.printf("mcpx      p50 %6.1f us  p90 %6.1f us  (p50 %.2fx raw)%n", percentile(mcpx, 50),
				percentile(mcpx, 90), percentile(mcpx, 50) / percentile(raw, 50));
		System.out.printf("mcpx      %.0f calls/s with 8 threads%n", throughput);
	}

	/** The official MCP Java SDK's stdio client on the same child. */
	private static long[] sdk(String node, int calls) {
		io.modelcontextprotocol.client.transport.StdioClientTransport transport = new io.modelcontextprotocol.client.transport.StdioClientTransport(
				io.modelcontextprotocol.client.transport.ServerParameters.builder(node).args("-e", CANNED_SERVER).build(),
				new io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper(tools.jackson.databind.json.JsonMapper.builder().build()));
		transport.setStdErrorHandler((line) -> {
		});
		io.modelcontextprotocol.client.McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(transport)
			.requestTimeout(Duration.ofSeconds(30))
			.build();
		try {
			client.initialize();
			io.modelcontextprotocol.spec.McpSchema.CallToolRequest request = new io.modelcontextprotocol.spec.McpSchema.CallToolRequest(
					"echo", Map.of("text", "hello"));
			return timed(calls, () -> client.callTool(request));
		}
		finally {
			client.closeGracefully();
		}
	}

	private static long[] raw(String node, int calls) throws Exception {
		Process child = new ProcessBuilder(node, "-e", CANNED_SERVER).start();
		try {
			OutputStream in = child.getOutputStream();
			BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
			AtomicLong id = new AtomicLong();
			return timed(calls, () -> {
				try {
					byte[] line = ("{\"jsonrpc\":\"2.0\",\"id\":" + id.incrementAndGet()
							+ ",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hello\"}}}\n")
						.getBytes(StandardCharsets.UTF_8);
					in.write(line);
					in.flush();
					return out.readLine();
				}
				catch (java.io.IOException ex) {
					throw new java.io.UncheckedIOException(ex);
				}
			});
		}
		finally {
			child.destroy();
		}
	}

	private static long[] timed(int calls, java.util.function.Supplier<Object> call) {
		for (int i = 0; i < calls; i++) {
			call.get(); // warm-up, as many as measured
		}
		long[] nanos = new long[calls];
		for (int i = 0; i < calls; i++) {
			long start = System.nanoTime();
			call.get();
			nanos[i] = System.nanoTime() - start;
		}
		Arrays.sort(nanos);
		return nanos;
	}

	private static double throughput(McpClient client, int threads, Duration length) throws InterruptedException {
		AtomicLong done = new AtomicLong();
		long end = System.nanoTime() + length.toNanos();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		for (int t = 0; t < threads; t++) {
			pool.execute(() -> {
				while (System.nanoTime() < end) {
					client.callTool("echo", Map.of("text", "hello"));
					done.incrementAndGet();
				}
			});
		}
		pool.shutdown();
		pool.awaitTermination(length.toSeconds() + 30, TimeUnit.SECONDS);
		return done.get() / (double) length.toSeconds();
	}

	private static double percentile(long[] sorted, int percent) {
		return sorted[Math.min(sorted.length - 1, sorted.length * percent / 100)] / 1000.0;
	}

}
