package dev.mcpx.client.event;

import org.jspecify.annotations.Nullable;

import dev.mcpx.client.model.ProtocolEra;

/**
 * The client found out which protocol era its upstream speaks, on first contact or again
 * after the upstream changed.
 *
 * @param upstream the upstream name
 * @param era the era detected
 * @param protocolVersion the protocol version the client will speak
 * @param previous the era assumed before, absent on first detection
 */
public record McpEraDetectedEvent(String upstream, ProtocolEra era, String protocolVersion, @Nullable ProtocolEra previous)
		implements McpEvent {
}
