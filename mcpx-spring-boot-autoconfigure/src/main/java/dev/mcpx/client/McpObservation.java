package dev.mcpx.client;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * The observation of one client request, {@code mcpx.client.requests}: a timer per
 * upstream, method and outcome where Micrometer metrics are configured, a span where
 * tracing is. Tags are low-cardinality: the tool name is not one of them.
 */
final class McpObservation {

	/** The observation's name, and so the timer's. */
	static final String NAME = "mcpx.client.requests";

	/** Tag of the outcome: {@link #SUCCESS}, or the simple name of the exception thrown. */
	static final String OUTCOME = "outcome";

	static final String SUCCESS = "success";

	private McpObservation() {
	}

	static Observation start(ObservationRegistry registry, String upstream, String method) {
		if (registry.isNoop()) {
			return Observation.NOOP; // without building names and tags nobody reads
		}
		return Observation.createNotStarted(NAME, registry)
			.contextualName("mcp " + method)
			.lowCardinalityKeyValues(KeyValues.of("upstream", upstream, "method", method))
			.start();
	}

}
