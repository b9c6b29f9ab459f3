/**
 * Internal: the wire format of MCP: JSON-RPC 2.0 messages, method names, the mapping of
 * results to the model, tool header declarations, and redaction of secrets from what a
 * server writes. Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.protocol;

import org.jspecify.annotations.NullMarked;
