package dev.mcpx.client.internal.session;

import dev.mcpx.client.error.McpProtocolException;

/**
 * A server answered {@code server/discover} without the {@code supportedVersions} every
 * modern discovery result carries (2026-07-28 schema, {@code DiscoverResult}): it processed
 * the method under legacy semantics, so it is not a modern server.
 */
public class NotModernServerException extends McpProtocolException {

	/**
	 * Creates an exception naming the upstream.
	 * @param upstream the upstream name
	 */
	public NotModernServerException(String upstream) {
		super(upstream, "server/discover was answered without supportedVersions: the upstream does not speak the "
				+ "modern era (2026-07-28)", null);
	}

}
