package dev.mcpx.client.event;

/**
 * Something an {@code McpClient}, or the live set of them, did that an operator may want to
 * know. Events are immutable and carry no secret: no session id in full, no header value.
 */
public sealed interface McpEvent permits McpSessionExpiredEvent, McpSessionRecoveredEvent, McpRecoveryFailedEvent,
		McpRequestReissuedEvent, McpReissueRefusedEvent, McpEraDetectedEvent, McpCatalogueInvalidatedEvent, McpStreamResumedEvent,
		McpStreamNotResumableEvent, McpTaskCreatedEvent, McpTaskResumedEvent, McpTaskCompletedEvent,
		McpUpstreamChangedEvent, McpUserEvent {

	/**
	 * The upstream the event is about.
	 * @return the upstream name
	 */
	String upstream();

}
