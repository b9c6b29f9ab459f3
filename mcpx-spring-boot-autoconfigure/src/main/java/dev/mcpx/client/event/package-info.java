/**
 * The events a client publishes about its recoveries and its catalogue: immutable records
 * that name their upstream and carry no secret, delivered to
 * {@link dev.mcpx.client.event.McpEventListener}s.
 */
@NullMarked
package dev.mcpx.client.event;

import org.jspecify.annotations.NullMarked;
