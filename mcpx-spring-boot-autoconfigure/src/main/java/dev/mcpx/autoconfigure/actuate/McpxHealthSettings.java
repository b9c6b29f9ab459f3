package dev.mcpx.autoconfigure.actuate;

import java.time.Duration;

import dev.mcpx.autoconfigure.InvalidMcpxPropertyException;
import dev.mcpx.autoconfigure.McpxProperties;

/**
 * How the health of an upstream is judged, validated from {@code mcpx.health.*}.
 *
 * @param probe whether a health check pings an upstream whose last exchange is stale
 * @param probeInterval how old the last exchange may be before a health check pings
 * @param timeout the longest a health check waits for one upstream's ping
 * @param downAfterFailures consecutive failed requests after which an upstream is down
 */
public record McpxHealthSettings(boolean probe, Duration probeInterval, Duration timeout, int downAfterFailures) {

	/** Default of {@code mcpx.health.probe-interval}. */
	public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofSeconds(30);

	/** Default of {@code mcpx.health.timeout}: well inside a Kubernetes probe's own timeout. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

	/** Default of {@code mcpx.health.down-after-failures}: one failed request is not an outage. */
	public static final int DEFAULT_DOWN_AFTER_FAILURES = 3;

	/**
	 * Checks the values.
	 * @param probe whether a health check may ping
	 * @param probeInterval zero or more
	 * @param timeout more than zero
	 * @param downAfterFailures one or more
	 */
	public McpxHealthSettings {
		if (probeInterval == null || probeInterval.isNegative()) {
			throw new InvalidMcpxPropertyException("mcpx.health.probe-interval",
					"it must be zero or more, was " + probeInterval);
		}
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new InvalidMcpxPropertyException("mcpx.health.timeout", "it must be positive, was " + timeout);
		}
		if (downAfterFailures < 1) {
			throw new InvalidMcpxPropertyException("mcpx.health.down-after-failures",
					"it must be 1 or more, was " + downAfterFailures);
		}
	}

	/**
	 * The defaults: no probe, down after three consecutive failures.
	 * @return the default settings
	 */
	public static McpxHealthSettings defaults() {
		return new McpxHealthSettings(false, DEFAULT_PROBE_INTERVAL, DEFAULT_TIMEOUT, DEFAULT_DOWN_AFTER_FAILURES);
	}

	/**
	 * The settings of {@code mcpx.health.*}.
	 * @param health the bound properties
	 * @return the settings
	 * @throws InvalidMcpxPropertyException naming the first invalid property
	 */
	public static McpxHealthSettings of(McpxProperties.Health health) {
		McpxHealthSettings defaults = defaults();
		return new McpxHealthSettings((health.getProbe() != null) ? health.getProbe() : defaults.probe(),
				(health.getProbeInterval() != null) ? health.getProbeInterval() : defaults.probeInterval(),
				(health.getTimeout() != null) ? health.getTimeout() : defaults.timeout(),
				(health.getDownAfterFailures() != null) ? health.getDownAfterFailures() : defaults.downAfterFailures());
	}

	/**
	 * These settings with the probe on or off.
	 * @param probe whether a health check may ping
	 * @return new settings
	 */
	public McpxHealthSettings withProbe(boolean probe) {
		return new McpxHealthSettings(probe, this.probeInterval, this.timeout, this.downAfterFailures);
	}

}
