package dev.mcpx.client.event;

import dev.mcpx.client.ProtocolEra;

/**
 * The client found out which protocol era its upstream speaks, on first contact or again
 * after the upstream changed.
 *
 * @param upstream the upstream name
 * @param era the era detected
 * @param protocolVersion the protocol version the client will speak
 * @param previous the era assumed before, or {@code null} on first detection
 */
public record McpEraDetectedEvent(String upstream, ProtocolEra era, String protocolVersion, ProtocolEra previous)
		implements McpEvent {
}
