package dev.mcpx.bench;

import java.util.concurrent.TimeUnit;

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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@code tools/call} through each contender against the same upstream, in the same JVM.
 * bench/run runs it twice: throughput ({@code -bm thrpt -t 16}, one client shared by all
 * threads, as an application shares it) and latency ({@code -bm sample -t 1}, p50 and p99).
 * Only one contender is open in a JVM: quick mode runs both modes of one contender in one JVM
 * ({@link JmhSequence}, {@code -f 0}), full mode forks each run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xms1g", "-Xmx1g" })
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
public class ToolCallBenchmark {

	/** {@code fixed}: negligible-cost endpoint; {@code sdk}: the official Java SDK server. */
	@Param({ "fixed", "sdk" })
	public String upstream;

	private Upstream server;

	private Contender contender;

	@Setup(Level.Trial)
	public void open(BenchmarkParams params) {
		String benchmark = params.getBenchmark();
		String kind = benchmark.substring(benchmark.lastIndexOf('.') + 1);
		this.server = Upstream.start(this.upstream);
		this.contender = Contender.open(kind, this.server.url());
	}

	@TearDown(Level.Trial)
	public void close() {
		try {
			this.contender.close();
		}
		finally {
			this.server.close();
		}
	}

	@Benchmark
	public Object mcpx() {
		return this.contender.call();
	}

	@Benchmark
	public Object sdk() {
		return this.contender.call();
	}

	@Benchmark
	public Object raw() {
		return this.contender.call();
	}

}
