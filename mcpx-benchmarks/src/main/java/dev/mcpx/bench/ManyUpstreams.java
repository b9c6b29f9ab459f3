package dev.mcpx.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;

import dev.mcpx.client.McpClient;
import dev.mcpx.client.McpClients;
import dev.mcpx.client.McpHttpClients;
import dev.mcpx.client.ProtocolMode;

/**
 * An application with many configured upstreams, the way an application has them: a Spring
 * Boot application ({@code @EnableAutoConfiguration}, no web server) with
 * {@code mcpx.clients.*} properties. Each scenario runs in a JVM of its own and prints one
 * line of JSON.
 * <ul>
 * <li>{@code start N}: the time {@code SpringApplication.run} takes with N upstreams (at a
 * port that refuses connections: nothing may connect before first use), in a fresh JVM;
 * {@code bench/run} alternates N = 0 and N = 200 and takes the ratio per round.</li>
 * <li>{@code idle N PORT...}: N upstreams, one per port of a {@link FixedUpstream} child with
 * as many ports, so each has its own connection. Live threads and retained heap (after full
 * GCs, serial GC) of the application's upstreams, first while only configured, then after one
 * call each and an idle period; the latency of each upstream's first call (the handshake and
 * the tool listing included) against its second; how many JDK HTTP clients were built;
 * the same again once the shared JDK client has gone unused for its idle release.</li>
 * </ul>
 * The application's own fixed cost is taken out: a context with no upstream is measured in
 * the same JVM first, after a warm-up context has loaded every class.
 */
public final class ManyUpstreams {

	/** Longer than the idle keep-alive of a client's watchdog thread (5 s). */
	private static final long IDLE_MILLIS = 6000;

	/** The most to wait for the idle release of the shared JDK client (30 s by default). */
	private static final long RELEASE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

	/**
	 * Longer than a released Java 17 client's selector thread takes to see, after a
	 * collection, that its client is gone, and to close its connections (at most 3 s).
	 */
	private static final long SELECTOR_EXIT_MILLIS = 4000;

	private ManyUpstreams() {
	}

	/** The application: whatever Boot auto-configures from the classpath, mcpx among it. */
	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

		/** Notes when Boot starts to bind one of mcpx's {@code @ConfigurationProperties} beans. */
		@Bean
		static BeanPostProcessor mcpxBindingStarts() {
			return new BindingStart();
		}

		/** Adds up, when Boot has bound it, how long that took. */
		@Bean
		static BeanPostProcessor mcpxBindingEnds() {
			return new BeanPostProcessor() {
				@Override
				public Object postProcessBeforeInitialization(Object bean, String beanName) {
					Long started = BindingStart.started.remove(beanName);
					if (started != null) {
						BindingStart.nanos += System.nanoTime() - started;
					}
					return bean;
				}

				@Override
				public Object postProcessAfterInitialization(Object bean, String beanName) {
					if (bean instanceof McpClients && BindingStart.clientsStarted != 0) {
						BindingStart.clientsNanos = System.nanoTime() - BindingStart.clientsStarted
								- (BindingStart.nanos - BindingStart.bindingBeforeClients);
					}
					return bean;
				}
			};
		}

	}

	/**
	 * From just before one of mcpx's {@code @ConfigurationProperties} beans is instantiated (the
	 * earliest post-processor callback) to just after Boot's binding post-processor has run
	 * (an unordered post-processor's callback before initialization): the bean's creation and its
	 * binding, wherever Boot does it (an instance supplier or its post-processor).
	 */
	static final class BindingStart implements InstantiationAwareBeanPostProcessor, PriorityOrdered {

		static final Map<String, Long> started = new HashMap<>();

		static long nanos;

		/**
		 * The creation of the {@link McpClients} bean with what it needs (the resolved
		 * settings, the configurer, every client), less Boot's binding done meanwhile.
		 */
		static long clientsStarted;

		static long bindingBeforeClients;

		static long clientsNanos;

		@Override
		public @Nullable Object postProcessBeforeInstantiation(Class<?> beanClass, String beanName) {
			if (McpClients.class.isAssignableFrom(beanClass) && clientsStarted == 0) {
				clientsStarted = System.nanoTime();
				bindingBeforeClients = nanos;
			}
			if (beanClass.getName().startsWith("dev.mcpx.")
					&& beanClass.isAnnotationPresent(ConfigurationProperties.class)) {
				started.put(beanName, System.nanoTime());
			}
			return null;
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

	public static void main(String[] args) throws Exception {
		String scenario = args[0];
		int n = Integer.parseInt(args[1]);
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("scenario", scenario);
		out.put("upstreams", n);
		if (scenario.equals("start")) {
			long t0 = System.nanoTime();
			try (ConfigurableApplicationContext context = start(urls(n, null))) {
				out.put("start_ms", Measurements.round((System.nanoTime() - t0) / 1e6, 1));
				out.put("mcpx_binding_ms", Measurements.round(BindingStart.nanos / 1e6, 1));
				out.put("mcpx_clients_ms", Measurements.round(BindingStart.clientsNanos / 1e6, 1));
				out.put("mcp_clients", context.getBean(McpClients.class).names().size());
			}
		}
		else if (scenario.equals("churn")) {
			churn(n, Arrays.copyOfRange(args, 2, args.length), out);
		}
		else {
			idle(n, Arrays.copyOfRange(args, 2, args.length), out);
		}
		System.out.println(Measurements.Json.write(out).replaceAll("\\s*\\n\\s*", " "));
		System.exit(0);
	}

	private static void idle(int n, String[] ports, Map<String, Object> out) throws Exception {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		// every class and static cache loaded, the JIT's first work done, nothing of it left open
		try (ConfigurableApplicationContext warm = start(urls(2, ports))) {
			callEach(warm.getBean(McpClients.class));
		}
		Thread.sleep(IDLE_MILLIS);
		long heapStart = usedAfterGc(memory);
		int threadsStart = threads();
		try (ConfigurableApplicationContext empty = start(urls(0, null))) {
			long heapEmpty = usedAfterGc(memory);
			int threadsEmpty = threads();
			Set<Long> before = liveThreadIds();
			long application = heapEmpty - heapStart;
			out.put("application_retained_bytes", application);
			out.put("application_threads", threadsEmpty - threadsStart);
			try (ConfigurableApplicationContext context = start(urls(n, ports))) {
				McpClients clients = context.getBean(McpClients.class);
				long heapConfigured = usedAfterGc(memory);
				out.put("threads_configured", newThreads(before));
				out.put("thread_names_configured", threadNames());
				out.put("retained_bytes_per_configured_upstream", (heapConfigured - heapEmpty - application) / n);
				long[][] firstAndSecond = callEach(clients);
				out.put("first_call_p50_us", p50(firstAndSecond[0]));
				out.put("first_call_max_us", Arrays.stream(firstAndSecond[0]).max().orElse(0) / 1000.0);
				out.put("second_call_p50_us", p50(firstAndSecond[1]));
				out.put("first_calls_total_ms", Arrays.stream(firstAndSecond[0]).sum() / 1e6);
				Thread.sleep(IDLE_MILLIS);
				long heapUsed = usedAfterGc(memory);
				McpHttpClients http = context.getBean(McpHttpClients.class);
				out.put("threads_idle", newThreads(before));
				out.put("retained_bytes_per_recently_used_upstream", (heapUsed - heapEmpty - application) / n);
				out.put("jdk_http_clients_built", http.builtClients());
				out.put("thread_names_idle", threadNames());
				// The shared JDK client goes once unused for the idle release (30 s unless the
				// application sets the JDK's keep-alive), with its pooled connections; on
				// Java 17 its selector thread ends once the collector has taken it.
				long t0 = System.nanoTime();
				while (http.builtClients() > 0 && System.nanoTime() - t0 < RELEASE_WAIT_NANOS) {
					Thread.sleep(250);
				}
				out.put("jdk_http_clients_after_release", http.builtClients());
				out.put("idle_release_after_ms", Math.round((System.nanoTime() - t0) / 1e6) + IDLE_MILLIS);
				usedAfterGc(memory);
				Thread.sleep(SELECTOR_EXIT_MILLIS);
				long heapIdle = usedAfterGc(memory);
				out.put("threads_after_release", newThreads(before));
				out.put("thread_names_after_release", threadNames());
				out.put("retained_bytes_per_idle_upstream", (heapIdle - heapEmpty - application) / n);
				// last, so that nothing of the floor's own client is counted above
				firstCallAgainstFloor(clients, n, ports, out);
			}
		}
	}

	/**
	 * Each of N new upstreams' first call against its floor ({@link FirstCallFloor}), in
	 * pairs: upstream i is added and called, and the floor's exchanges are made raw against
	 * the same port, in turn first and second, so that neither gains from going later; the
	 * ratio is taken per pair, and its median reported.
	 */
	private static void firstCallAgainstFloor(McpClients clients, int n, String[] ports, Map<String, Object> out)
			throws Exception {
		for (ProtocolMode era : List.of(ProtocolMode.LEGACY, ProtocolMode.MODERN)) {
			String key = era.name().toLowerCase(java.util.Locale.ROOT);
			long[] first = new long[n];
			long[] floor = new long[n];
			double[] ratios = new double[n];
			try (FirstCallFloor raw = new FirstCallFloor()) {
				for (int i = 0; i < n; i++) {
					URI url = URI.create("http://127.0.0.1:" + ports[i % ports.length] + FixedUpstream.PATH);
					McpClient client = clients.add(key + i, url, (builder) -> builder.protocol(era));
					if (i % 2 == 1) {
						floor[i] = (era == ProtocolMode.LEGACY) ? raw.firstCall(url) : raw.modernFirstCall(url);
					}
					long t0 = System.nanoTime();
					client.callTool(Upstream.TOOL, Contender.ARGUMENTS);
					first[i] = System.nanoTime() - t0;
					if (i % 2 == 0) {
						floor[i] = (era == ProtocolMode.LEGACY) ? raw.firstCall(url) : raw.modernFirstCall(url);
					}
					ratios[i] = (double) first[i] / floor[i];
				}
			}
			for (int i = 0; i < n; i++) {
				clients.remove(key + i);
			}
			Arrays.sort(ratios);
			out.put("first_call_paired_p50_us_" + key, p50(first));
			out.put("first_call_floor_p50_us_" + key, p50(floor));
			out.put("first_call_multiple_of_floor_" + key, Measurements.round(ratios[(n - 1) / 2], 3));
		}
	}

	/** Each upstream's first call, then each one's second, in nanoseconds. */
	/**
	 * Upstreams that come and go: in an application with none configured, N upstreams added
	 * through {@link McpClients#add(String, java.net.URI, java.util.function.Consumer)} (each
	 * add timed), the first {@value #CHURN_CALLED} called, then all removed and closed; live
	 * threads and retained heap against the same application before, once idle threads have
	 * ended and the shared JDK client has had its idle release.
	 */
	private static void churn(int n, String[] ports, Map<String, Object> out) throws Exception {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		try (ConfigurableApplicationContext context = start(urls(0, null))) {
			McpClients clients = context.getBean(McpClients.class);
			addCallRemove(clients, 2, 2, ports); // every class loaded, nothing of it left open
			Thread.sleep(IDLE_MILLIS);
			long heapBefore = usedAfterGc(memory);
			Set<Long> before = liveThreadIds();
			long[] adds = addCallRemove(clients, n, Math.min(n, CHURN_CALLED), ports);
			out.put("add_p50_us", p50(adds));
			out.put("add_max_us", Arrays.stream(adds).max().orElse(0) / 1000.0);
			McpHttpClients http = context.getBean(McpHttpClients.class);
			long t0 = System.nanoTime();
			Thread.sleep(IDLE_MILLIS);
			while (http.builtClients() > 0 && System.nanoTime() - t0 < RELEASE_WAIT_NANOS) {
				Thread.sleep(250);
			}
			usedAfterGc(memory);
			Thread.sleep(SELECTOR_EXIT_MILLIS);
			out.put("retained_bytes_after_churn", usedAfterGc(memory) - heapBefore);
			out.put("new_threads_after_churn", newThreads(before));
			out.put("live_upstreams_after_churn", clients.names().size());
		}
	}

	/** How many of the churned upstreams are called: each of those opens a session and a connection. */
	private static final int CHURN_CALLED = 100;

	private static long[] addCallRemove(McpClients clients, int n, int called, String[] ports) throws Exception {
		long[] adds = new long[n];
		for (int i = 0; i < n; i++) {
			URI url = URI.create("http://127.0.0.1:" + ports[i % ports.length] + FixedUpstream.PATH);
			long t0 = System.nanoTime();
			McpClient client = clients.add("churn" + i, url, (builder) -> builder.protocol(ProtocolMode.LEGACY));
			adds[i] = System.nanoTime() - t0;
			if (i < called) {
				client.callTool(Upstream.TOOL, Contender.ARGUMENTS);
			}
		}
		List<CompletableFuture<Void>> closing = new ArrayList<>();
		for (int i = 0; i < n; i++) {
			closing.add(clients.remove("churn" + i));
		}
		CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
		return adds;
	}

	private static long[][] callEach(McpClients clients) {
		List<McpClient> all = new ArrayList<>();
		clients.names().forEach((name) -> all.add(clients.get(name)));
		long[][] times = new long[2][all.size()];
		for (int round = 0; round < 2; round++) {
			for (int i = 0; i < all.size(); i++) {
				long t0 = System.nanoTime();
				all.get(i).callTool(Upstream.TOOL, Contender.ARGUMENTS);
				times[round][i] = System.nanoTime() - t0;
			}
		}
		return times;
	}

	/**
	 * Starts the application with the given properties in a properties file of its own, where
	 * an application declares its upstreams: Spring Boot treats a configuration file as
	 * immutable and indexes its property names once, while properties handed to the builder
	 * stay a mutable map whose names every binding step scans again, a cost an application's
	 * start does not have.
	 */
	private static ConfigurableApplicationContext start(Map<String, Object> properties) {
		Path file;
		try {
			file = Files.createTempFile("many-upstreams-", ".properties");
			StringBuilder text = new StringBuilder();
			properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
			Files.writeString(file, text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		try {
			return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
				.logStartupInfo(false)
				.properties("spring.config.additional-location=file:" + file.toAbsolutePath())
				.run();
		}
		finally {
			file.toFile().delete();
		}
	}

	/** N upstreams, at the given ports in turn, or all at a port that refuses connections. */
	private static Map<String, Object> urls(int n, String @Nullable [] ports) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.main.banner-mode", "off");
		for (int i = 0; i < n; i++) {
			String port = (ports != null) ? ports[i % ports.length] : "1";
			properties.put("mcpx.clients.u" + i + ".url", "http://127.0.0.1:" + port + FixedUpstream.PATH);
			properties.put("mcpx.clients.u" + i + ".protocol", "legacy");
		}
		return properties;
	}

	private static Map<String, Integer> threadNames() {
		Map<String, Integer> names = new TreeMap<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			names.merge(thread.getName().replaceAll("\\d+", "N"), 1, Integer::sum);
		}
		return names;
	}

	/** Live threads that were not alive at the baseline: a thread of the baseline that ends does not count. */
	private static int newThreads(Set<Long> baseline) {
		Set<Long> live = liveThreadIds();
		live.removeAll(baseline);
		return live.size();
	}

	private static Set<Long> liveThreadIds() {
		Set<Long> ids = new HashSet<>();
		for (long id : ManagementFactory.getThreadMXBean().getAllThreadIds()) {
			ids.add(id);
		}
		return ids;
	}

	private static int threads() {
		return ManagementFactory.getThreadMXBean().getThreadCount();
	}

	private static double p50(long[] nanos) {
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		return Measurements.round(sorted[(sorted.length - 1) / 2] / 1000.0, 1);
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
