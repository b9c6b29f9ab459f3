package dev.mcpx.client;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.mcpx.client.internal.transport.http.Instances;

/**
 * The application's {@link McpEndpoints} as the transport asks for them: an endpoint that is
 * not a usable URL (the check of {@link McpClient#builder(String, java.net.URI)}) is left
 * out, with one warning naming why, so one bad instance costs the others nothing.
 */
final class UsableEndpoints implements Instances {

	private static final Log logger = LogFactory.getLog(UsableEndpoints.class);

	/** Bounds the memory of refused endpoints under a registry that keeps inventing new ones. */
	private static final int MAX_REMEMBERED_REFUSALS = 256;

	private final String upstream;

	private final McpEndpoints endpoints;

	private final Map<URI, Boolean> refused = new ConcurrentHashMap<>();

	private volatile Checked last = new Checked(List.of(), List.of());

	UsableEndpoints(String upstream, McpEndpoints endpoints) {
		this.upstream = upstream;
		this.endpoints = endpoints;
	}

	@Override
	public List<URI> live() {
		List<URI> given = this.endpoints.live();
		Checked last = this.last;
		if (given == last.given()) {
			return last.usable(); // the usual case: the same snapshot, checked once
		}
		List<URI> usable = new ArrayList<>(given.size());
		for (URI endpoint : given) {
			if (endpoint == null) {
				continue;
			}
			try {
				usable.add(BuilderSettings.validUrl(this.upstream, endpoint));
			}
			catch (IllegalArgumentException ex) {
				if (this.refused.size() < MAX_REMEMBERED_REFUSALS && this.refused.putIfAbsent(endpoint, true) == null) {
					logger.warn("[" + this.upstream + "] an instance is left out: " + ex.getMessage());
				}
			}
		}
		List<URI> result = List.copyOf(usable);
		this.last = new Checked(given, result);
		return result;
	}

	/** A snapshot the application gave, and what of it is usable. */
	private record Checked(List<URI> given, List<URI> usable) {
	}

	@Override
	public @Nullable URI choose(List<URI> candidates) {
		return this.endpoints.choose(candidates);
	}

}
