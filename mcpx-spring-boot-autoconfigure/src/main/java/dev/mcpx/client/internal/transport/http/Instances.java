package dev.mcpx.client.internal.transport.http;

import java.net.URI;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The instances of a replicated upstream, as {@link ReplicatedTransport} asks for them: the
 * application's {@code McpEndpoints}, adapted by the builder (usable URLs only).
 */
public interface Instances {

	/**
	 * The endpoints of the instances live now.
	 * @return a snapshot, empty when none is live
	 */
	List<URI> live();

	/**
	 * The application's choice among candidates.
	 * @param candidates the live endpoints not passed over, never empty
	 * @return one of them, or {@code null} for round robin
	 */
	@Nullable URI choose(List<URI> candidates);

}
