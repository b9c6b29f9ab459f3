/**
 * Internal: delivery of a client's events to its listeners, so that a listener that throws
 * never breaks a call. Not API: may change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.events;

import org.jspecify.annotations.NullMarked;
