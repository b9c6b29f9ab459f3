package dev.mcpx.client.fuzz;

import java.util.Random;

/**
 * Seeds of the fuzz tests. jqwik does not run on the JUnit Platform 6 that Spring Boot 4
 * brings (jqwik 1.x is built on Platform 1.x), so the fuzz tests are plain JUnit with a
 * seeded {@link Random}: every test prints its seed, and {@code -Dmcpx.fuzz.seed=L}
 * replays one; {@code -Dmcpx.fuzz.scale=N} multiplies the number of cases (a longer fuzz run).
 */
final class Seeds {

	private Seeds() {
	}

	/**
	 * A random generator for one test, from {@code mcpx.fuzz.seed} or the clock; the seed is
	 * printed so that a failure can be replayed.
	 * @param test the test name, printed with the seed
	 * @return the generator
	 */
	static Random random(String test) {
		long seed = Long.getLong("mcpx.fuzz.seed", System.nanoTime());
		System.out.println("[fuzz] " + test + " seed " + seed + " (replay with -Dmcpx.fuzz.seed=" + seed + ")");
		return new Random(seed);
	}

	/**
	 * The number of cases of a property, multiplied by {@code mcpx.fuzz.scale} (default 1).
	 * @param defaultCount the count at the default scale
	 * @return the count
	 */
	static int iterations(int defaultCount) {
		return Math.max(1, defaultCount * Math.max(1, Integer.getInteger("mcpx.fuzz.scale", 1)));
	}

}
