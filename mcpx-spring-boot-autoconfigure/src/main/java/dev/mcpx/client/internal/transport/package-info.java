/**
 * Internal: the transport seam. {@link dev.mcpx.client.internal.transport.McpTransport} moves
 * JSON-RPC messages to and from an upstream, with what crosses it (envelopes, received
 * responses, resumption points, the typed ways a message is lost) and the deadlines that bound
 * it. This layer knows no MCP method; HTTP lives in {@code transport.http} and nowhere above.
 * Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.transport;

import org.jspecify.annotations.NullMarked;
