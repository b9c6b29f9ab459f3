package dev.mcpx.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.ProtocolMode;
import dev.mcpx.client.StdioCommand;

/**
 * stdio {@code tools/call} through mcpx against a raw pipe of the same bytes and the official
 * Java SDK's stdio client, each to a child process of its own running the same trivial server
 * (a Node script that answers each request line with a canned response line): what mcpx adds
 * on top of the pipe. Prints one line of JSON.
 * <pre>
 * java -cp ... dev.mcpx.bench.StdioRoundTrip [rounds] [warm seconds] [seconds per measurement]
 * </pre>
 * As {@link Rounds} does for HTTP: every contender is warmed, then measured in interleaved
 * rounds (mcpx, raw, SDK, then the reverse), and each ratio is taken within a round and
 * reported as the median. Latency: sequential calls on one thread, p50. Throughput: 16 callers
 * at once; the raw contender then pipelines, its callers writing under a lock and one reader
 * thread handing each response to its caller by id, the least any multiplexed stdio client does.
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

	private static final int THREADS = 16;

	private StdioRoundTrip() {
	}

	public static void main(String[] args) throws Exception {
		int rounds = (args.length > 0) ? Integer.parseInt(args[0]) : 6;
		double warm = (args.length > 1) ? Double.parseDouble(args[1]) : 5;
		double seconds = (args.length > 2) ? Double.parseDouble(args[2]) : 1;
		String node = System.getProperty("mcpx.bench.node", "node");
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("rounds", rounds);
		out.put("threads", THREADS);
		try (RawPipe raw = new RawPipe(node);
				McpClient mcpx = McpClient.stdio("bench", new StdioCommand(node, List.of("-e", CANNED_SERVER), Map.of(),
						null, true))
					.protocol(ProtocolMode.LEGACY)
					.listenForChanges(false)
					.build();
				SdkStdio sdk = new SdkStdio(node)) {
			List<Side> sides = List.of(new Side("mcpx", () -> mcpx.callTool("echo", Map.of("text", "hello"))),
					new Side("raw", raw::callAlone, raw::callPipelined), new Side("sdk", sdk::call));
			for (Side side : sides) {
				side.latency(warm / 2);
				side.throughput(warm / 2);
			}
			List<Double> p50Ratios = new ArrayList<>();
			List<Double> throughputRatios = new ArrayList<>();
			List<Double> sdkP50Ratios = new ArrayList<>();
			for (int round = 0; round < rounds; round++) {
				List<Side> order = new ArrayList<>(sides);
				if (round % 2 == 1) {
					Collections.reverse(order);
				}
				for (Side side : order) {
					side.p50s.add(side.latency(seconds));
					side.opsPerSecond.add(side.throughput(seconds));
				}
				Side m = sides.get(0);
				Side r = sides.get(1);
				Side k = sides.get(2);
				p50Ratios.add(Measurements.round(last(m.p50s) / last(r.p50s), 3));
				throughputRatios.add(Measurements.round(last(m.opsPerSecond) / last(r.opsPerSecond), 3));
				sdkP50Ratios.add(Measurements.round(last(k.p50s) / last(r.p50s), 3));
			}
			for (Side side : sides) {
				Map<String, Object> result = new LinkedHashMap<>();
				result.put("p50_us", Measurements.round(Measurements.median(side.p50s), 1));
				result.put("p50_us_per_round", side.p50s);
				result.put("ops_per_s", Measurements.round(Measurements.median(side.opsPerSecond), 1));
				result.put("ops_per_s_per_round", side.opsPerSecond);
				out.put(side.name, result);
			}
			out.put("ratio_p50_vs_raw_pipe", Measurements.round(Measurements.median(p50Ratios), 3));
			out.put("ratio_p50_vs_raw_pipe_per_round", p50Ratios);
			out.put("ratio_throughput_vs_raw_pipe", Measurements.round(Measurements.median(throughputRatios), 3));
			out.put("ratio_throughput_vs_raw_pipe_per_round", throughputRatios);
			out.put("sdk_ratio_p50_vs_raw_pipe", Measurements.round(Measurements.median(sdkP50Ratios), 3));
		}
		System.out.println(Measurements.Json.write(out).replaceAll("\\s*\\n\\s*", " "));
		System.exit(0);
	}

	private static double last(List<Double> values) {
		return values.get(values.size() - 1);
	}

	/** One contender: a call, timed alone and from 16 threads at once. */
	private static final class Side {

		final String name;

		final Supplier<Object> call;

		final Supplier<Object> concurrentCall;

		final List<Double> p50s = new ArrayList<>();

		final List<Double> opsPerSecond = new ArrayList<>();

		Side(String name, Supplier<Object> call) {
			this(name, call, call);
		}

		Side(String name, Supplier<Object> call, Supplier<Object> concurrentCall) {
			this.name = name;
			this.call = call;
			this.concurrentCall = concurrentCall;
		}

		/** p50 in microseconds of sequential calls for about the given time. */
		double latency(double seconds) {
			long end = System.nanoTime() + (long) (seconds * 1e9);
			List<Long> nanos = new ArrayList<>();
			while (System.nanoTime() < end) {
				long start = System.nanoTime();
				this.call.get();
				nanos.add(System.nanoTime() - start);
			}
			nanos.sort(null);
			return Measurements.round(nanos.get(nanos.size() / 2) / 1000.0, 1);
		}

		/** Calls per second of 16 threads calling at once for the given time. */
		double throughput(double seconds) throws InterruptedException {
			AtomicLong done = new AtomicLong();
			long end = System.nanoTime() + (long) (seconds * 1e9);
			ExecutorService pool = Executors.newFixedThreadPool(THREADS);
			for (int t = 0; t < THREADS; t++) {
				pool.execute(() -> {
					while (System.nanoTime() < end) {
						this.concurrentCall.get();
						done.incrementAndGet();
					}
				});
			}
			pool.shutdown();
			if (!pool.awaitTermination((long) seconds + 30, TimeUnit.SECONDS)) {
				throw new IllegalStateException(this.name + ": callers still running 30 s after their end");
			}
			return Measurements.round(done.get() / seconds, 1);
		}

	}

	/**
	 * The raw contenders, each on a child of its own: sequentially, a caller writes its line and
	 * reads the answer line on its own thread; at 16 callers, they write under a lock and one
	 * reader thread hands each answer line to the caller waiting for its id.
	 */
	private static final class RawPipe implements AutoCloseable {

		private final Child alone;

		private final Child pipelined;

		private final Map<Long, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();

		private final AtomicLong ids = new AtomicLong();

		RawPipe(String node) throws java.io.IOException {
			this.alone = new Child(node);
			this.pipelined = new Child(node);
			Thread reader = new Thread(this::readPipelined, "raw-pipe-reader");
			reader.setDaemon(true);
			reader.start();
		}

		Object callAlone() {
			try {
				this.alone.write(this.ids.incrementAndGet());
				return this.alone.out.readLine();
			}
			catch (java.io.IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
		}

		Object callPipelined() {
			long id = this.ids.incrementAndGet();
			CompletableFuture<String> answer = new CompletableFuture<>();
			this.waiting.put(id, answer);
			try {
				this.pipelined.write(id);
				return answer.get(30, TimeUnit.SECONDS);
			}
			catch (java.io.IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
				throw new IllegalStateException(ex);
			}
		}

		private void readPipelined() {
			try {
				for (String line = this.pipelined.out.readLine(); line != null; line = this.pipelined.out.readLine()) {
					int from = line.indexOf("\"id\":") + 5;
					int to = from;
					while (Character.isDigit(line.charAt(to))) {
						to++;
					}
					CompletableFuture<String> answer = this.waiting.remove(Long.parseLong(line.substring(from, to)));
					if (answer != null) {
						answer.complete(line);
					}
				}
			}
			catch (java.io.IOException ex) {
				// the child ended: the benchmark is over
			}
		}

		@Override
		public void close() {
			this.alone.process.destroy();
			this.pipelined.process.destroy();
		}

	}

	/** A child process running the canned server. */
	private static final class Child {

		final Process process;

		final OutputStream in;

		final BufferedReader out;

		Child(String node) throws java.io.IOException {
			this.process = new ProcessBuilder(node, "-e", CANNED_SERVER).start();
			this.in = this.process.getOutputStream();
			this.out = new BufferedReader(new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
		}

		void write(long id) throws java.io.IOException {
			byte[] json = Contender.Raw.callJson(id); // the bytes mcpx sends, as the HTTP raw contender does
			synchronized (this.in) {
				this.in.write(json);
				this.in.write('\n');
				this.in.flush();
			}
		}


	}

	/** The official MCP Java SDK's stdio client, on a child of its own. */
	private static final class SdkStdio implements AutoCloseable {

		private final io.modelcontextprotocol.client.McpSyncClient client;

		private final io.modelcontextprotocol.spec.McpSchema.CallToolRequest request = new io.modelcontextprotocol.spec.McpSchema.CallToolRequest(
				"echo", Map.of("text", "hello"));

		SdkStdio(String node) {
			io.modelcontextprotocol.client.transport.StdioClientTransport transport = new io.modelcontextprotocol.client.transport.StdioClientTransport(
					io.modelcontextprotocol.client.transport.ServerParameters.builder(node).args("-e", CANNED_SERVER).build(),
					new io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper(
							tools.jackson.databind.json.JsonMapper.builder().build()));
			transport.setStdErrorHandler((line) -> {
			});
			this.client = io.modelcontextprotocol.client.McpClient.sync(transport)
				.requestTimeout(Duration.ofSeconds(30))
				.build();
			this.client.initialize();
		}

		Object call() {
			return this.client.callTool(this.request);
		}

		@Override
		public void close() {
			this.client.closeGracefully();
		}

	}

}
