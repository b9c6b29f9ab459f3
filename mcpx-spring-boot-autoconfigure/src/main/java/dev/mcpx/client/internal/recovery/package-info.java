/**
 * Internal: the one place that decides to try a request again, and the keepalive. The
 * rules here apply the policy and gate of {@code dev.mcpx.client.recovery}. Not API: may
 * change in any release.
 */
@NullMarked
package dev.mcpx.client.internal.recovery;

import org.jspecify.annotations.NullMarked;
