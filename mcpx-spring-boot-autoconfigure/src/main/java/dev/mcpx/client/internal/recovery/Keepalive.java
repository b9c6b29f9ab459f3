package dev.mcpx.client.internal.recovery;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.mcpx.client.error.McpException;

/**
 * Pings an open session periodically, so that an expired session is found, and recovered,
 * before a caller needs it. It never opens a session by itself: a lazy client stays idle
 * until first used.
 */
public final class Keepalive implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(Keepalive.class);

	private final ScheduledExecutorService timer;

	/**
	 * Starts pinging.
	 * @param upstream the upstream name, for the thread name
	 * @param interval the time between pings
	 * @param sessionOpen whether a session is open to keep alive
	 * @param ping sends one ping through the client, recovery included
	 */
	public Keepalive(String upstream, Duration interval, BooleanSupplier sessionOpen, Runnable ping) {
		ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "mcpx-" + upstream + "-keepalive");
			thread.setDaemon(true);
			return thread;
		});
		executor.setRemoveOnCancelPolicy(true);
		this.timer = executor;
		long millis = interval.toMillis();
		this.timer.scheduleWithFixedDelay(() -> {
			if (!sessionOpen.getAsBoolean()) {
				return;
			}
			try {
				ping.run();
			}
			catch (McpException ex) {
				logger.debug("[" + upstream + "] keepalive ping failed: " + ex.getMessage());
			}
			catch (RuntimeException ex) {
				logger.warn("[" + upstream + "] keepalive ping failed", ex);
			}
		}, millis, millis, TimeUnit.MILLISECONDS);
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
	}

}
