package dev.mcpx.client.internal.assembly;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.model.ProcessStatus;

/**
 * Counts what one client did, for its status: outcomes of requests, and, as an event
 * listener, its recoveries. Lock-free: updated on every request.
 */
public final class ClientStats implements McpEventListener {

	private final String shownUrl;

	private final Clock clock;

	private final Supplier<@Nullable ProcessStatus> process;

	private final AtomicLong recoveries = new AtomicLong();

	private final AtomicLong reissues = new AtomicLong();

	private final AtomicInteger consecutiveFailures = new AtomicInteger();

	private volatile @Nullable Instant lastRecoveryAt;

	/** Epoch millis of the last success; 0 for never. */
	private volatile long lastSuccessMillis;

	private volatile @Nullable Instant lastFailureAt;

	private volatile @Nullable String lastError;

	private volatile @Nullable Class<? extends McpException> lastErrorType;

	/**
	 * Creates the counts of one client.
	 * @param shownUrl the upstream as it may be shown ({@link ClientSettings.Wire#shown()})
	 * @param clock the clock of the timestamps
	 * @param process the server process of a stdio upstream, absent for HTTP
	 */
	ClientStats(String shownUrl, Clock clock, Supplier<@Nullable ProcessStatus> process) {
		this.shownUrl = shownUrl;
		this.clock = clock;
		this.process = process;
	}

	@Override
	public void onEvent(McpEvent event) {
		if (event instanceof McpSessionRecoveredEvent) {
			this.recoveries.incrementAndGet();
			this.lastRecoveryAt = this.clock.instant();
		}
		else if (event instanceof McpRequestReissuedEvent) {
			this.reissues.incrementAndGet();
		}
	}

	public void succeeded() {
		// Written at most once per millisecond and reset only after a failure: every caller
		// thread passes here, and a shared line written on every call is contended.
		long now = this.clock.millis();
		if (this.lastSuccessMillis != now) {
			this.lastSuccessMillis = now;
		}
		if (this.consecutiveFailures.get() != 0) {
			this.consecutiveFailures.set(0);
		}
	}

	public void failed(McpException failure) {
		this.lastFailureAt = this.clock.instant();
		this.lastError = failure.getClass().getSimpleName() + ": " + failure.getMessage();
		this.lastErrorType = failure.getClass();
		this.consecutiveFailures.incrementAndGet();
	}

	/** The endpoint without credentials or query, or {@code stdio:<command>}. */
	public String shownUrl() {
		return this.shownUrl;
	}

	public long recoveries() {
		return this.recoveries.get();
	}

	public long reissues() {
		return this.reissues.get();
	}

	public @Nullable Instant lastRecoveryAt() {
		return this.lastRecoveryAt;
	}

	public @Nullable Instant lastSuccessAt() {
		long millis = this.lastSuccessMillis;
		return (millis != 0) ? Instant.ofEpochMilli(millis) : null;
	}

	public @Nullable Instant lastFailureAt() {
		return this.lastFailureAt;
	}

	/** The last failure's type and message, as mcpx wrote it. */
	public @Nullable String lastError() {
		return this.lastError;
	}

	public @Nullable Class<? extends McpException> lastErrorType() {
		return this.lastErrorType;
	}

	public int consecutiveFailures() {
		return this.consecutiveFailures.get();
	}

	public @Nullable ProcessStatus process() {
		return this.process.get();
	}

}
