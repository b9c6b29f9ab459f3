/**
 * Internal: moving messages to and from an upstream. HTTP (status codes, headers, event
 * streams, {@code Last-Event-ID}, bounded body reads) lives here and nowhere above; this
 * layer knows no MCP method. Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.transport;

import org.jspecify.annotations.NullMarked;
