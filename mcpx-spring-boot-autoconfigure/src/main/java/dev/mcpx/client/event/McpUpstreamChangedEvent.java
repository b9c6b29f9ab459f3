package dev.mcpx.client.event;

import java.util.Objects;

/**
 * The live set of upstreams changed: an upstream was added, replaced or removed while the
 * application runs, and why (docs/architecture.md, "The live registry"). Heard by every
 * {@code McpClientsListener}, and published as an application event in a Spring
 * application. Carries no secret: the endpoint is shown as {@code McpClientStatus.url()}
 * shows it, without user-info, query or fragment, and a stdio command without its
 * arguments; no header value.
 *
 * @param upstream the upstream name
 * @param change what happened to it
 * @param cause what changed it
 * @param url the endpoint of the client now live (for a removal, of the client removed), as
 * the client's status shows it
 */
public record McpUpstreamChangedEvent(String upstream, Change change, Cause cause, String url) implements McpEvent {

	/**
	 * An event, checked: every field set.
	 */
	public McpUpstreamChangedEvent {
		Objects.requireNonNull(upstream, "upstream");
		Objects.requireNonNull(change, "change");
		Objects.requireNonNull(cause, "cause");
		Objects.requireNonNull(url, "url");
	}

	/**
	 * What happened to an upstream of the live set.
	 */
	public enum Change {

		/** It joined the live set. */
		ADDED,

		/** Its client was replaced by a new one; the old one drains. */
		REPLACED,

		/** It left the live set; its client drains. */
		REMOVED

	}

	/**
	 * What changed the live set.
	 */
	public enum Cause {

		/** The application, through the {@code McpClients} API. */
		API,

		/** A refresh of the application's configuration ({@code mcpx.clients}, {@code mcpx.discovery}). */
		REFRESH,

		/** The service registry: a service became, or stopped being, an MCP upstream. */
		DISCOVERY

	}

}
