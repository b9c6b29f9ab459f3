package dev.mcpx.client;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.mcpx.client.model.ProcessStatus;
import dev.mcpx.client.error.McpException;
import dev.mcpx.client.event.McpEvent;
import dev.mcpx.client.event.McpEventListener;
import dev.mcpx.client.event.McpRequestReissuedEvent;
import dev.mcpx.client.event.McpSessionRecoveredEvent;
import dev.mcpx.client.internal.session.SessionState;

/**
 * Counts what one client did, for {@link McpClient#status()}: outcomes of requests, and,
 * as an event listener, its recoveries. Lock-free: updated on every request.
 */
final class ClientStats implements McpEventListener {

	private final String upstream;

	private final String url;

	private final Clock clock;

	private final AtomicLong recoveries = new AtomicLong();

	private final AtomicLong reissues = new AtomicLong();

	private final AtomicInteger consecutiveFailures = new AtomicInteger();

	private volatile @Nullable Instant lastRecoveryAt;

	/** Epoch millis of the last success; 0 for never. */
	private volatile long lastSuccessMillis;

	private volatile @Nullable Instant lastFailureAt;

	private volatile @Nullable String lastError;

	private volatile @Nullable Class<? extends McpException> lastErrorType;

	private volatile Supplier<@Nullable ProcessStatus> process = () -> null;

	ClientStats(String upstream, URI url, Clock clock) {
		this(upstream, redacted(url), clock);
	}

	/**
	 * Counts for a stdio upstream, shown as {@code stdio:<command>}: its arguments may hold
	 * secrets.
	 */
	ClientStats(String upstream, StdioCommand command, Clock clock) {
		this(upstream, "stdio:" + command.command(), clock);
	}

	private ClientStats(String upstream, String shownUrl, Clock clock) {
		this.upstream = upstream;
		this.url = shownUrl;
		this.clock = clock;
	}

	void process(Supplier<@Nullable ProcessStatus> process) {
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

	void succeeded() {
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

	void failed(McpException failure) {
		this.lastFailureAt = this.clock.instant();
		this.lastError = failure.getClass().getSimpleName() + ": " + failure.getMessage();
		this.lastErrorType = failure.getClass();
		this.consecutiveFailures.incrementAndGet();
	}

	McpClientStatus snapshot(@Nullable SessionState state) {
		return new McpClientStatus(this.upstream, this.url, (state != null) ? state.era() : null,
				(state != null) ? state.protocolVersion() : null, (state != null) ? state.serverInfo() : null,
				(state != null) ? state.generation() : 0, this.recoveries.get(), this.reissues.get(),
				this.lastRecoveryAt,
				(this.lastSuccessMillis != 0) ? Instant.ofEpochMilli(this.lastSuccessMillis) : null, this.lastFailureAt,
				this.lastError, this.lastErrorType,
				this.consecutiveFailures.get(), this.process.get());
	}

	/** Credentials and query stay out of anything shown. */
	static String redacted(URI url) {
		StringBuilder shown = new StringBuilder().append(url.getScheme()).append("://").append(url.getHost());
		if (url.getPort() >= 0) {
			shown.append(':').append(url.getPort());
		}
		if (url.getRawPath() != null) {
			shown.append(url.getRawPath());
		}
		return shown.toString();
	}

}
