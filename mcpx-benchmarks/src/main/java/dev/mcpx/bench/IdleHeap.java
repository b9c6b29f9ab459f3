package dev.mcpx.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.web.client.RestClient;

import dev.mcpx.client.internal.transport.http.BlockingJdkRequestFactory;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Retained heap of idle clients of one kind, in a JVM of its own (so nothing another kind
 * left behind is counted): N clients, each after one call (session open, one pooled
 * connection), left idle, then measured after full GCs against the heap before them.
 * Prints one line of JSON.
 * <pre>
 * java -XX:+UseSerialGC -cp ... dev.mcpx.bench.IdleHeap mcpx|sdk|raw|jsonmapper|restclient URL N
 * </pre>
 */
public final class IdleHeap {

	/** Longer than the idle keep-alive of mcpx's watchdog thread (5 s). */
	private static final long IDLE_MILLIS = 6000;

	public static void main(String[] args) throws Exception {
		String kind = args[0];
		String url = args[1];
		int n = Integer.parseInt(args[2]);
		// classes, static caches and the JIT's first work stay out of the measurement
		HttpClient shared = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		if (kind.equals("jsonmapper")) {
			useOnce(JsonMapper.builder().build());
		}
		else if (kind.equals("restclient")) {
			restClient(shared);
		}
		else {
			Contender.open(kind, url).close();
		}
		Thread.sleep(IDLE_MILLIS);
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		long before = usedAfterGc(memory);
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		List<Object> clients = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			if (kind.equals("jsonmapper")) {
				JsonMapper mapper = JsonMapper.builder().build();
				useOnce(mapper);
				clients.add(mapper);
			}
			else if (kind.equals("restclient")) {
				clients.add(restClient(shared));
			}
			else {
				clients.add(Contender.open(kind, url));
			}
		}
		Thread.sleep(IDLE_MILLIS);
		long after = usedAfterGc(memory);
		int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
		Map<String, Integer> names = new TreeMap<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			names.merge(thread.getName().replaceAll("\\d+", "N"), 1, Integer::sum);
		}
		System.out.printf(Locale.ROOT,
				"{\"kind\": \"%s\", \"clients\": %d, \"retained_bytes_per_client\": %d, \"threads_per_client\": %.2f, "
						+ "\"threads\": %s}%n",
				kind, n, (after - before) / n, (double) (threadsAfter - threadsBefore) / n,
				Measurements.Json.write(names).replaceAll("\\s+", " "));
		if (clients.size() != n) {
			throw new IllegalStateException(); // keeps the clients reachable until here
		}
		System.exit(0);
	}

	/**
	 * A {@code RestClient} as {@code McpClientBuilder} builds one by default (the blocking
	 * request factory, the byte-array converter only), on a shared {@code HttpClient} so that
	 * only the {@code RestClient} is counted.
	 */
	private static RestClient restClient(HttpClient shared) {
		return RestClient.builder()
			.requestFactory(new BlockingJdkRequestFactory(shared))
			.messageConverters(List.of(new ByteArrayHttpMessageConverter()))
			.build();
	}

	/** The mapper work of one mcpx call: a tree from a map, a tree written, bytes read. */
	private static void useOnce(JsonMapper mapper) {
		ObjectNode params = mapper.createObjectNode();
		params.put("name", Upstream.TOOL);
		params.set("arguments", mapper.valueToTree(Contender.ARGUMENTS));
		mapper.readTree(mapper.writeValueAsBytes(params));
	}

	private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 4; i++) {
			System.gc();
			Thread.sleep(50);
			used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
		}
		return used;
	}

}
