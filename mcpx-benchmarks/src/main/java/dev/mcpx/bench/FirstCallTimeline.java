package dev.mcpx.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import org.springframework.context.ConfigurableApplicationContext;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.ProtocolMode;

/**
 * Where an upstream's first call spends its time, seen from the server: the moment each of
 * its exchanges arrives and is answered, against the same exchanges made raw
 * ({@link FirstCallFloor}). Each gap (from the call's start to the first arrival, from one
 * answer to the next arrival, from the last answer to the caller's return) is the client's
 * own work plus the loopback; the floor's gaps are the loopback and the JDK client alone, so
 * their difference is what the client adds at each step. Upstreams and application in one
 * JVM, {@code N} upstreams added in turn (each its own port, as in {@link ManyUpstreams});
 * the first quarter of them warms up and is not counted; p50 per step. Not part of
 * {@code bench/run}: {@code java -cp ... dev.mcpx.bench.FirstCallTimeline 400}.
 */
public final class FirstCallTimeline {

	private static final Pattern METHOD = Pattern.compile("\"method\"\\s*:\\s*\"([^\"]+)\"");

	/** The exchanges of the call being timed, as they were answered. */
	private static final List<Seen> seen = new ArrayList<>();

	private FirstCallTimeline() {
	}

	public static void main(String[] args) throws Exception {
		int n = Integer.parseInt(args[0]);
		List<FixedUpstream> upstreams = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			FixedUpstream upstream = FixedUpstream.start(0, 1, true);
			upstream.observe(new Timing());
			upstreams.add(upstream);
		}
		Map<String, Object> out = new LinkedHashMap<>();
		try (ConfigurableApplicationContext context = ManyUpstreams.start(ManyUpstreams.urls(0, null))) {
			McpClients clients = context.getBean(McpClients.class);
			for (ProtocolMode era : List.of(ProtocolMode.LEGACY, ProtocolMode.MODERN)) {
				out.put(era.name().toLowerCase(Locale.ROOT), timeline(clients, era, upstreams));
			}
		}
		finally {
			upstreams.forEach(FixedUpstream::close);
		}
		System.out.println(Measurements.Json.write(out).replaceAll("\\s*\\n\\s*", " "));
		System.exit(0);
	}

	/** The p50 of each gap, for mcpx and the floor, in microseconds. */
	private static Map<String, Object> timeline(McpClients clients, ProtocolMode era, List<FixedUpstream> upstreams)
			throws Exception {
		int n = upstreams.size();
		int warm = n / 4;
		List<long[]> mcpx = new ArrayList<>();
		List<long[]> floor = new ArrayList<>();
		List<String> methods = new ArrayList<>();
		String prefix = era.name().toLowerCase(Locale.ROOT) + "-";
		// legacy: initialize, notifications/initialized, tools/list, tools/call; modern: server/discover, tools/list, tools/call
		int expected = (era == ProtocolMode.LEGACY) ? 4 : 3;
		try (FirstCallFloor raw = new FirstCallFloor()) {
			for (int i = 0; i < n; i++) {
				URI url = URI.create(upstreams.get(i).url());
				McpClient client = clients.add(prefix + i, url, (builder) -> builder.protocol(era));
				// in turn first and second, as in ManyUpstreams, so that neither gains from going later
				if (i % 2 == 1) {
					record(floor, expected, i >= warm, () -> floorCall(raw, era, url));
				}
				List<String> exchanges = record(mcpx, expected, i >= warm, () -> client.callTool(Upstream.TOOL, Contender.ARGUMENTS));
				methods.clear();
				methods.addAll(exchanges);
				if (i % 2 == 0) {
					record(floor, expected, i >= warm, () -> floorCall(raw, era, url));
				}
			}
		}
		for (int i = 0; i < n; i++) {
			clients.remove(prefix + i);
		}
		Map<String, Object> result = new LinkedHashMap<>();
		result.put("exchanges", methods);
		result.put("mcpx_gaps_p50_us", p50s(mcpx));
		result.put("floor_gaps_p50_us", p50s(floor));
		result.put("mcpx_total_p50_us", total(mcpx));
		result.put("floor_total_p50_us", total(floor));
		return result;
	}

	private static void floorCall(FirstCallFloor raw, ProtocolMode era, URI url) throws Exception {
		if (era == ProtocolMode.LEGACY) {
			raw.firstCall(url);
		}
		else {
			raw.modernFirstCall(url);
		}
	}

	/**
	 * Times one first call: the gaps before each arrival (from the call's start or the
	 * answer before) and the last one, from the last answer to the caller's return.
	 * @return the exchanges the server saw, in order
	 */
	private static List<String> record(List<long[]> into, int expected, boolean counted, Call call) throws Exception {
		synchronized (seen) {
			seen.clear();
		}
		long start = System.nanoTime();
		call.run();
		long end = System.nanoTime();
		// the server notes the last answer after writing it, which the caller may have read already
		long giveUp = end + 1_000_000_000L;
		List<Seen> exchanges;
		while (true) {
			synchronized (seen) {
				exchanges = new ArrayList<>(seen);
			}
			if (exchanges.size() >= expected || System.nanoTime() - giveUp > 0) {
				break;
			}
			Thread.onSpinWait();
		}
		if (exchanges.size() != expected) {
			throw new IllegalStateException("the server saw " + exchanges.size() + " exchanges, not " + expected);
		}
		long[] gaps = new long[exchanges.size() + 1];
		long last = start;
		List<String> methods = new ArrayList<>();
		for (int k = 0; k < exchanges.size(); k++) {
			gaps[k] = exchanges.get(k).arrived() - last;
			last = exchanges.get(k).answered();
			methods.add(exchanges.get(k).method());
		}
		gaps[exchanges.size()] = end - last;
		if (counted) {
			into.add(gaps);
		}
		return methods;
	}

	private static List<Double> p50s(List<long[]> calls) {
		int steps = calls.stream().mapToInt((gaps) -> gaps.length).min().orElse(0);
		List<Double> p50s = new ArrayList<>();
		for (int k = 0; k < steps; k++) {
			int step = k;
			long[] values = calls.stream().mapToLong((gaps) -> gaps[step]).sorted().toArray();
			p50s.add(Measurements.round(values[values.length / 2] / 1e3, 1));
		}
		return p50s;
	}

	private static double total(List<long[]> calls) {
		long[] totals = calls.stream().mapToLong((gaps) -> Arrays.stream(gaps).sum()).sorted().toArray();
		return Measurements.round(totals[totals.length / 2] / 1e3, 1);
	}

	private record Seen(long arrived, long answered, String method) {
	}

	@FunctionalInterface
	private interface Call {

		void run() throws Exception;

	}

	/** Notes when each exchange arrives and when its answer has been written. */
	private static final class Timing extends Filter {

		@Override
		public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
			long arrived = System.nanoTime();
			byte[] body = exchange.getRequestBody().readAllBytes();
			exchange.setStreams(new ByteArrayInputStream(body), null);
			Matcher method = METHOD.matcher(new String(body, StandardCharsets.UTF_8));
			chain.doFilter(exchange);
			long answered = System.nanoTime();
			String name = exchange.getRequestMethod() + " " + (method.find() ? method.group(1) : "-");
			synchronized (seen) {
				seen.add(new Seen(arrived, answered, name));
			}
		}

		@Override
		public String description() {
			return "first-call timing";
		}

	}

}
